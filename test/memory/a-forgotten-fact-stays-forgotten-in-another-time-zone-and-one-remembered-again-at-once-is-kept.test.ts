// A tombstone used to hide the copies of its text whose `## HH:MM` header, read in the daemon's local time, was at or
// before its UTC instant. A daemon started in another time zone read the headers hours off, and forgotten facts came
// back; and a fact remembered again in the minute it was forgotten was hidden for good. A tombstone now records the
// log position it reached (`through`: today's log and its line count), which no time zone moves.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, startDaemon, testConfig, type Running } from '../helpers/daemon.js';

const facts = async (d: Running, q: string) =>
  (await d.search(q, { mode: 'bm25', filters: { source_type: 'fact' } })).results.map((r: any) => r.snippet as string);

t.test('forgotten in UTC, still forgotten in Los Angeles; remembered again at once, kept', async (t) => {
  const tz = process.env['TZ'];
  process.env['TZ'] = 'UTC';
  t.teardown(() => {
    if (tz === undefined) delete process.env['TZ'];
    else process.env['TZ'] = tz;
  });
  const v = makeVault({ 'Inbox/a.md': '# A\n\nA note.\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  let d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const remember = async (content: string) => (await d.tool('memory_remember', { content, wait_indexed: true })).body;

  const otter = await remember('The otter lives by the weir');
  await remember('The heron nests by the mill');
  const f = await d.tool('memory_forget', { fact_id: otter.fact_id });
  t.equal(f.status, 200, JSON.stringify(f.body));
  const again = await d.tool('memory_remember', { content: 'The heron nests by the mill', wait_indexed: true });
  const heronForgot = await d.tool('memory_forget', { query: 'heron nests mill', confirm: true });
  t.equal(heronForgot.status, 200);
  const third = await d.tool('memory_remember', { content: 'The heron nests by the mill.', wait_indexed: true });
  t.equal(third.status, 200);
  t.equal(third.body.indexed, true, 'remembered again right after it was forgotten: indexed, not hidden');
  t.equal(again.status, 200);
  const stones = readFileSync(path.join(v.dir, 'Memory/tombstones.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.match(stones, [{ through: /^\d{4}-\d{2}-\d{2}:5$/ }, { through: /^\d{4}-\d{2}-\d{2}:6$/ }], 'each names the log position it reached');
  t.same(await facts(d, 'otter weir'), []);
  t.same(await facts(d, 'heron mill'), ['The heron nests by the mill.'], 'only the copy remembered after the forget');

  // another time zone, and an index rebuilt from the vault
  await d.stop();
  rmSync(cfg.data_dir, { recursive: true, force: true });
  process.env['TZ'] = 'America/Los_Angeles';
  d = await startDaemon(testConfig(v.dir));
  await d.daemon.whenCaughtUp();
  t.same(await facts(d, 'otter weir'), [], 'the forgotten fact stays forgotten');
  t.same(await facts(d, 'heron mill'), ['The heron nests by the mill.']);
});
