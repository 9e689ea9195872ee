// Keyword hits' snippets are made over a scratch copy of just those hits (snippets.ts) rather than by asking the
// whole full-text index, which walks every row the query matches: the text must be exactly what the whole index
// gives — real pages of the tldr corpus, matches in the text, the heading or only the title, accents folded,
// stemmed words — and the scratch table is left empty after each search.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ftsQuery } from '../../actors/gateway/fts-query.js';
import { keywordSnippets } from '../../actors/gateway/snippets.js';
import { search } from '../../actors/gateway/search.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { corpusDir, corpusFiles } from '../helpers/corpora.js';
import { chunk, doc, rng, tempIndex } from '../helpers/index-fixture.js';

t.test('the snippets of 300 queries over 400 real pages match the whole index', async (t) => {
  const ix = tempIndex(t, { dim: null });
  const files = corpusFiles('tldr-common').slice(0, 400);
  const words: string[] = [];
  ix.db.transaction(() => {
    for (const f of files) {
      const text = readFileSync(path.join(corpusDir('tldr-common'), f), 'utf8');
      words.push(...(text.match(/[a-z]{4,}/g) ?? []));
      // a page's sections as chunks, its command name as the title and the section's heading
      const parts = text.split(/\n(?=- )/);
      ix.writer.upsertDocument(
        doc(
          f,
          parts.map((p, i) => chunk(i, p, { headingPath: [`${f.replace(/\.md$/, '')} usage ${i}`] })),
        ),
      );
    }
    ix.writer.upsertDocument(doc('Café crème.md', [chunk(0, 'nothing about drinks here', { headingPath: ['Résumé'] })]));
  })();
  const db = openIndex(ix.file, { readonly: true }); // as the gateway reads: its own read-only connection
  t.teardown(() => db.close());
  const whole = db.prepare(
    `SELECT rowid AS id, snippet(memory_fts, 0, '', '', '…', 32) AS s FROM memory_fts
     WHERE memory_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
  );
  const top = db.prepare(`SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rank LIMIT 40`).pluck();
  const r = rng(18);
  const queries = ['cafe creme', 'resume', 'copying files', 'archives compressed', 'usage'];
  while (queries.length < 300)
    queries.push(Array.from({ length: 1 + Math.floor(r() * 4) }, () => words[Math.floor(r() * words.length)]!).join(' '));
  let compared = 0;
  let titleOnly = 0;
  for (const q of queries) {
    const match = ftsQuery(q).terms.join(' OR ');
    const ids = top.all(match) as number[];
    const want = new Map((whole.all(match, JSON.stringify(ids)) as Array<{ id: number; s: string }>).map((x) => [x.id, x.s]));
    const got = keywordSnippets(db, match, ids);
    t.same(
      [...got].sort((a, b) => a[0] - b[0]),
      [...want].sort((a, b) => a[0] - b[0]),
      q,
      { diagnostic: false },
    );
    compared += want.size;
    titleOnly += [...want.values()].filter((s) => !/cafe|creme|café|crème/i.test(s) && q === 'cafe creme').length;
  }
  t.ok(compared > 5000, `${compared} snippets compared`);
  t.ok(titleOnly > 0, 'a hit matched by its title alone has its snippet too');
  t.equal(db.prepare('SELECT count(*) FROM temp.snippet_source').pluck().get(), 0, 'the scratch table is left empty');
  t.equal(db.prepare('SELECT count(*) FROM temp.snippet_text_idx').pluck().get(), 0, 'and its full-text index too');
});

t.test('a search shows the snippet around the match, also in a read transaction', async (t) => {
  const ix = tempIndex(t, { dim: null });
  const long = `${'lorem ipsum dolor sit amet '.repeat(30)}the zymurgy section explains brewing ${'consectetur adipiscing elit '.repeat(30)}`;
  ix.writer.upsertDocument(doc('brew.md', [chunk(0, long)]));
  const db = openIndex(ix.file, { readonly: true });
  t.teardown(() => db.close());
  const [hit] = db.transaction(() => search(db, { query: 'zymurgy brewed', k: 5, mode: 'bm25' }, null))();
  const whole = db
    .prepare(`SELECT snippet(memory_fts, 0, '', '', '…', 32) FROM memory_fts WHERE memory_fts MATCH '"zymurgy" OR "brewed"'`)
    .pluck()
    .get() as string;
  t.match(whole, /^….* the zymurgy section explains brewing .*…$/, 'FTS5 cuts the text around the match');
  // search keeps a snippet to one line of ~200 characters, cut at a word
  t.ok(hit && whole.startsWith(hit.snippet.replace(/…$/, '')) && hit.snippet.length > 150, String(hit?.snippet));
});
