// Regression for the worst failure of memory systems: an update ("Alice moved to Lisbon") dropped at write time as a
// near-duplicate of the fact it changes ("Alice lives in Berlin"). memory_remember appends both to the day log as
// commits and both are found. Also: the answer's fact_id/path/line/commit match the log, git and search; each append
// embeds only its own line; the log is reserved to vault_write; a person's edit of the log reaches the index.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { daemonOn, git, within, type Running } from '../helpers/daemon.js';

async function factEmbeddings(d: Running): Promise<number> {
  const m = (await d.api('GET', '/metrics')).body as string;
  return Number(/memvault_episode_embeddings_total\{source_type="fact"\} (\d+)/.exec(m)?.[1] ?? 0);
}

t.test('the fact log', async (t) => {
  const { v, d } = await daemonOn(t, { 'People/Alice.md': '# Alice\n\nAlice works on the billing export.\n' });
  const remember = async (args: Record<string, unknown>, agent = 'agent-1') => {
    const r = await d.tool('memory_remember', { wait_indexed: true, ...args }, agent);
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    return r.body;
  };

  await t.test('an update is never dropped: the old fact and the new one are both kept and both found', async (t) => {
    const old = await remember({ content: 'Alice lives in Berlin', category: 'people', tags: ['alice'] });
    const update = await remember({
      content: 'Alice moved to Lisbon',
      category: 'people',
      tags: ['alice', '#moves'],
      session_id: 'chat-42',
    });
    t.not(old.fact_id, update.fact_id);
    t.equal(old.path, update.path, "both in today's log");
    const log = readFileSync(path.join(v.dir, update.path), 'utf8').split('\n');
    t.equal(log[old.line - 1], '- [people] Alice lives in Berlin #alice', 'the answer names the line it wrote');
    t.equal(log[update.line - 1], '- [people] Alice moved to Lisbon #alice #moves');
    t.match(log[update.line - 2], /^## \d\d:\d\d — agent-1 · chat-42$/, 'under a header naming the recorder and the session');
    t.match(update.path, /^Memory\/Log\/\d{4}-\d\d-\d\d\.md$/);
    t.match(update.fact_id, new RegExp(`^${update.path.slice(11, 21)}#[0-9a-f]{8}$`));
    const commit = git(v.dir, 'show', '-s', '--format=%B', update.commit);
    t.match(commit, /Memvault-Op: remember/);
    t.match(commit, /Memvault-Agent: agent-1/);
    const found = (await d.search('where does Alice live', { filters: { source_type: 'fact' } })).results;
    t.same(new Set(found.map((r: any) => r.fact_id)), new Set([old.fact_id, update.fact_id]), 'both facts are found');
    const hit = found.find((r: any) => r.fact_id === update.fact_id);
    t.match(hit, { source_type: 'fact', path: update.path, line: update.line, category: 'people', tags: ['alice', 'moves'] });
    t.match(hit.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/, 'at: the minute of its header');
    const all = (await d.search('Alice moved Lisbon', { mode: 'bm25' })).results;
    t.ok(
      all.some((r: any) => r.fact_id === update.fact_id) && all.some((r: any) => r.path === 'People/Alice.md'),
      'beside the vault notes',
    );
  });

  await t.test('the same fact again with other tags is one fact holding both lines; a first bracket is content', async (t) => {
    const espresso = await remember({ content: 'Dana drinks', tags: ['espresso'] });
    const matcha = await remember({ content: 'Dana drinks', tags: ['matcha'] });
    t.equal(matcha.fact_id, espresso.fact_id, 'one content, one fact id');
    for (const [word, line] of [
      ['espresso', espresso.line],
      ['matcha', matcha.line],
    ] as const) {
      const hit = (await d.search(word, { mode: 'bm25', filters: { source_type: 'fact' } })).results.find(
        (r: any) => r.fact_id === espresso.fact_id,
      );
      t.ok(hit, `found by ${word}`);
      t.same(new Set(hit?.tags), new Set(['espresso', 'matcha']), "the fact holds both lines' tags");
      t.equal(hit?.start_line, line, `the ${word} hit points at its own line`);
    }
    const draft = await remember({ content: '[draft] the Q3 roadmap is due Friday' });
    const log = readFileSync(path.join(v.dir, draft.path), 'utf8').split('\n');
    t.equal(log[draft.line - 1], '- \\[draft] the Q3 roadmap is due Friday', 'the bracket is escaped in the log');
    const hit = (await d.search('Q3 roadmap due', { mode: 'bm25', filters: { source_type: 'fact' } })).results[0];
    t.match(hit, { fact_id: draft.fact_id, category: null }, 'read back without a category');
    const link = await remember({ content: '[[Marisol Veck]] sold the canoe' });
    t.equal(
      readFileSync(path.join(v.dir, link.path), 'utf8').split('\n')[link.line - 1],
      '- [[Marisol Veck]] sold the canoe',
      'a leading wikilink is written as given: escaped, it would no longer link in Obsidian',
    );
    const linked = (await d.search('Marisol sold canoe', { mode: 'bm25', filters: { source_type: 'fact' } })).results[0];
    t.match(linked, { fact_id: link.fact_id, category: null }, 'and read back without a category');
  });

  await t.test('each append embeds its own line only, however long the day log is', async (t) => {
    for (let i = 0; i < 5; i++) await remember({ content: `Standup note ${i}: the billing export shipped to region ${i}` });
    const before = await factEmbeddings(d);
    for (let i = 0; i < 3; i++) await remember({ content: `Deploy ${i} of the ledger service went out on time` });
    t.equal(await factEmbeddings(d), before + 3, 'three appends, three texts sent to the model');
  });

  await t.test('vault_write refuses the fact log as reserved; the rest of Memory is writable', async (t) => {
    const day = (await remember({ content: 'The office wifi password rotates monthly' })).path;
    for (const p of [day, 'Memory/Log/2020-01-01.md', 'Memory/tombstones.jsonl', 'Memory/log.md']) {
      const r = await d.tool('vault_write', { path: p, content: 'overwritten' });
      t.equal(r.status, 403, p);
      t.equal(r.body.error.reason, 'reserved', `${p} is reserved`);
    }
    t.equal((await d.tool('vault_write', { path: 'Memory/people.md', content: '# People\n' })).status, 200);
  });

  await t.test("a person's edit of the log reaches the index: a new line is found, a removed one is gone", async (t) => {
    const r = await remember({ content: 'Bob prefers tea over coffee', category: 'people' });
    const abs = path.join(v.dir, r.path);
    const text = readFileSync(abs, 'utf8').replace('- [people] Bob prefers tea over coffee\n', '- [people] Bob prefers green tea\n');
    // the OS event reaches the memory actor, which reads the log after its debounce window and sends the diff. Either
    // may come first: the echo of memory_remember's own write can arrive just after the edit, and the read it starts
    // then already finds the edited text (CI saw the diff sent before the edit's own event was routed)
    const projected = new Promise<void>((resolve) => {
      let event = false;
      let diff = false;
      const off = d.daemon.onRouted((m) => {
        if (m.type === 'memory.fs_events' && m.from === 'os' && m.paths.includes(r.path)) event = true;
        if (m.type === 'store.episodes' && m.batch.upserts.some((u) => u.chunks.some((c) => c.content.includes('green tea')))) diff = true;
        if (event && diff) {
          off();
          resolve();
        }
      });
    });
    writeFileSync(abs, text);
    await within(projected, 60_000, "the edited log's diff to reach the store"); // a bound so a miss fails, not hangs: generous, CI runs two files at once
    await d.daemon.whenCaughtUp();
    t.same(
      (await d.search('green tea', { mode: 'bm25', filters: { source_type: 'fact' } })).results.map((x: any) => x.snippet),
      ['[people] Bob prefers green tea'],
    );
    t.same((await d.search('coffee', { mode: 'bm25', filters: { source_type: 'fact' } })).results, [], 'the edited-away fact is gone');
  });
});
