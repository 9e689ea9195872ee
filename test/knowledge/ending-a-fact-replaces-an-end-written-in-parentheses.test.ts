// The reader takes `(until:: …)` as a line's end like `[until:: …]`. memory_invalidate_fact replaced only a bracketed
// one: on a person's `- likes:: coffee (until:: 2100-01-01)` it appended `[until:: 2026-06-01]`, the reader kept the
// parenthesised end, and the fact stayed current until 2100 while the tool answered valid_until 2026-06-01 (seen
// over HTTP on a temp vault). Now any end on the line is replaced, in either form. A real daemon over HTTP.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

t.test('ending a fact replaces an end written in parentheses', async (t) => {
  const s = await startToolDaemon({ 'People/Gus.md': '# Gus\n\n## Facts\n\n- likes:: coffee (until:: 2100-01-01)\n' });
  t.teardown(() => s.stop());
  const d = s.d;
  const likes = async (at: string) =>
    (await d.tool('memory_facts', { entity: 'Gus', predicate: 'likes', at })).body.facts as Array<{ id: number; valid_until: string }>;
  const [f] = await likes('2050-01-01');
  t.match(f, { valid_until: '2100-01-01' }, 'the parenthesised end is read');

  const inv = await d.tool('memory_invalidate_fact', { id: f!.id, at: '2026-06-01' });
  t.equal(inv.status, 200, JSON.stringify(inv.body));
  t.equal(readFileSync(path.join(s.v.dir, 'People/Gus.md'), 'utf8'), '# Gus\n\n## Facts\n\n- likes:: coffee [until:: 2026-06-01]\n');
  t.same(await likes('2050-01-01'), [], 'no longer current after the new end');
  t.match(await likes('2026-05-31'), [{ id: inv.body.id, valid_until: '2026-06-01' }], 'the answer names the row with the new end');
});
