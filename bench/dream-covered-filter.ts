// What hiding the dream's covered facts costs a keyword search: an index of fact documents (real corpus text) and
// wiki pages covering half of them, searched with and without the covered filter (`temp.dream_hidden`),
// alternating query by query in the same run. `node dist/bench/dream-covered-filter.js [--facts 20000] [--queries 200]`
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { search } from '../actors/gateway/search.js';
import { IndexWriter } from '../actors/store-writer/index-writer.js';
import { openIndex } from '../actors/store-writer/schema.js';
import type { SearchRequest } from '../messages/store.js';
import { cpuName, intArg, median, pct, rng } from './harness.js';
import { loadParagraphs } from './synthetic-store.js';

const facts = intArg('facts', 20_000);
const queries = intArg('queries', 200);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-bench-dream-'));
const file = path.join(dir, 'index.sqlite');
const paras = loadParagraphs();
const db = openIndex(file, { readonly: false });
const writer = new IndexWriter(db, {
  model: { provider: 'bench', name: 'none', version: '1', dim: 8 },
  chunkerVersion: 'bench',
  now: Date.now,
});
const chunk = (content: string, seq = 0) => ({
  seq,
  content,
  headingPath: [],
  startLine: 1,
  endLine: 1,
  tokenCount: content.split(/\s+/).length,
  hash: sha(content + seq),
  vector: null,
});
const covered: Record<string, [string, string]> = {};
const t0 = performance.now();
db.transaction(() => {
  for (let i = 0; i < facts; i++) {
    const text = `${paras[i % paras.length]!.text.split('\n')[0]!.slice(0, 200)} ${i}`;
    const id = `2026-${String(1 + (i % 12)).padStart(2, '0')}-01#${sha(text).slice(0, 8)}`;
    writer.upsertDocument({
      sourceType: 'fact',
      sourceId: id,
      title: 'fact',
      contentHash: sha(text),
      mtimeMs: 0,
      size: 0,
      metadata: {},
      tags: [],
      sensitive: false,
      chunks: [chunk(text)],
    });
    if (i % 2 === 0) {
      const page = `Memory/Wiki/Page ${Math.floor(i / 20)}.md`;
      covered[id] = [page, sha(page)];
    }
  }
  for (let p = 0; p < Math.ceil(facts / 20); p++) {
    const page = `Memory/Wiki/Page ${p}.md`;
    writer.upsertDocument({
      sourceType: 'vault',
      sourceId: page,
      title: page,
      contentHash: sha(page),
      mtimeMs: 0,
      size: 0,
      metadata: {},
      tags: [],
      sensitive: false,
      chunks: [chunk(`Page ${p} of the wiki`)],
    });
  }
})();
const buildMs = performance.now() - t0;
db.exec('CREATE TEMP TABLE dream_hidden (id TEXT PRIMARY KEY) WITHOUT ROWID');
const f0 = performance.now();
db.prepare('INSERT INTO temp.dream_hidden (id) SELECT value FROM json_each(?)').run(JSON.stringify(Object.keys(covered)));
const fillMs = performance.now() - f0;
const r = rng(7);
const vocab = [...new Set(paras.flatMap((p) => p.text.match(/[A-Za-z]{6,}/g) ?? []))];
const qs = Array.from({ length: queries }, () => `${vocab[Math.floor(r() * vocab.length)]} ${vocab[Math.floor(r() * vocab.length)]}`);
const req = (query: string, hide: boolean): SearchRequest => ({
  query,
  k: 10,
  mode: 'bm25',
  group: 'note',
  userId: 'default',
  filters: hide ? { hideCovered: true } : {},
});
const plain: number[] = [];
const filtered: number[] = [];
let hiddenSeen = 0;
for (let round = 0; round < 3; round++)
  qs.forEach((q, i) => {
    // alternate which goes first, so neither rides the other's warm cache
    const order = (i + round) % 2 === 0 ? [false, true] : [true, false];
    for (const hide of order) {
      const s = performance.now();
      const hits = search(db, req(q, hide), null);
      (hide ? filtered : plain).push(performance.now() - s);
      if (hide) hiddenSeen += hits.filter((h) => covered[h.path]).length;
    }
  });
db.close();
rmSync(dir, { recursive: true, force: true });
const cpu = cpuName();
const row = (name: string, xs: number[]) =>
  `${name.padEnd(28)} ${median(xs).toFixed(3).padStart(8)} ms  p95 ${pct(xs, 95).toFixed(3).padStart(8)} ms`;
console.log(
  `dream covered filter — ${facts} facts, ${Object.keys(covered).length} covered, ${queries} queries × 3 rounds, ${cpu}, load ${os.loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `index built in ${Math.round(buildMs)} ms; the hidden set filled in ${fillMs.toFixed(1)} ms (when a covered page or the covered file changes)`,
);
console.log(row('bm25, no filter (reference)', plain));
console.log(row('bm25, covered facts hidden', filtered));
console.log(`ratio of medians ${(median(filtered) / median(plain)).toFixed(2)}; covered facts returned with the filter: ${hiddenSeen}`);
console.log(
  JSON.stringify({
    facts,
    covered: Object.keys(covered).length,
    plain_median_ms: median(plain),
    filtered_median_ms: median(filtered),
    ratio: median(filtered) / median(plain),
    hidden_returned: hiddenSeen,
    fill_ms: fillMs,
  }),
);
