// memory_forget by query with confirm forgets the first candidate, so the candidates are the facts that share words
// with the query: a query naming nothing that was remembered finds no fact to forget (not_found) rather than the
// nearest vector, which the hybrid list always has and scores 1, and every fact is still found after it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

t.test('forgetting by query forgets only a fact that shares a word with the query', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  const d = s.d;
  const keep = await d.tool('memory_remember', { content: 'The heron feeder key is under the blue mat', wait_indexed: true });
  t.equal(keep.status, 200);
  const other = await d.tool('memory_remember', { content: 'Quarterly invoices go out on the first Monday', wait_indexed: true });
  t.equal(other.status, 200);
  const found = async (q: string) =>
    (await d.search(q, { mode: 'bm25', filters: { source_type: 'fact' } })).results.map((r: any) => r.fact_id as string);

  const listed = await d.tool('memory_forget', { query: 'zebra quantum xylophone' });
  t.equal(listed.status, 404, JSON.stringify(listed.body));
  t.equal(listed.body.error.reason, 'not_found', 'no candidate shares a word with the query');

  const confirmed = await d.tool('memory_forget', { query: 'zebra quantum xylophone', confirm: true });
  t.equal(confirmed.status, 404, JSON.stringify(confirmed.body));
  t.equal(confirmed.body.error.reason, 'not_found');
  t.notOk(existsSync(path.join(s.v.dir, 'Memory/tombstones.jsonl')), 'no tombstone was written');
  t.same(await found('heron feeder key'), [keep.body.fact_id], 'the heron fact is still found');
  t.same(await found('quarterly invoices'), [other.body.fact_id], 'the invoice fact is still found');

  const right = await d.tool('memory_forget', { query: 'where is the feeder key', confirm: true });
  t.equal(right.status, 200);
  t.match(right.body.forgotten, [{ fact_id: keep.body.fact_id }], 'a query sharing words forgets its best match');
  t.same(await found('quarterly invoices'), [other.body.fact_id], 'and only it');
});
