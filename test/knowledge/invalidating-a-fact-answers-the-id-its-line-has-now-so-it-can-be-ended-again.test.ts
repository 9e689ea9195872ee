// memory_invalidate_fact edits the fact's line, and an edited line is a new row (the old one invalidated), so the
// answer's id is the row the line has now — the one memory_facts lists — and a second call with it moves the end
// date (replacing the [until::]) or deletes the line, rather than answering not_found for a line still there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

t.test('invalidating a fact answers the id its line has now, so it can be ended again', async (t) => {
  const s = await startToolDaemon({ 'People/Ana.md': '# Ana\n\n## Facts\n\n- likes:: green tea\n' });
  t.teardown(() => s.stop());
  const d = s.d;
  const note = () => readFileSync(path.join(s.v.dir, 'People/Ana.md'), 'utf8');
  const listed = async (at: string) =>
    (await d.tool('memory_facts', { entity: 'Ana', predicate: 'likes', at })).body.facts.map((f: { id: number }) => f.id);

  const [id0] = await listed('2026-01-01');
  t.ok(id0, 'the fact is listed');
  const first = await d.tool('memory_invalidate_fact', { id: id0, at: '2026-06-01' });
  t.equal(first.status, 200, JSON.stringify(first.body));
  t.match(note(), '- likes:: green tea [until:: 2026-06-01]\n');
  t.same(await listed('2026-01-01'), [first.body.id], 'the answer names the row memory_facts lists now');
  t.equal(first.body.previous_id, id0);

  const again = await d.tool('memory_invalidate_fact', { id: first.body.id, at: '2026-07-01' });
  t.equal(again.status, 200, JSON.stringify(again.body));
  t.match(note(), '- likes:: green tea [until:: 2026-07-01]\n', 'the end date is replaced');
  t.same(await listed('2026-06-15'), [again.body.id]);

  const del = await d.tool('memory_delete_fact', { id: again.body.id });
  t.equal(del.status, 200, JSON.stringify(del.body));
  t.notMatch(note(), 'green tea');
});
