// memory_add_fact with a valid_from before the current value's own start (a single-valued predicate) records an older
// value: the current line is left as it is — never given an [until::] before its [from::], which made it hold at no
// instant — and the facts at any instant follow both lines' starts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

const ANA = '# Ana\n\n## Facts\n\n- lives_in:: Berlin [from:: 2026-01-01]\n';

t.test('a backdated value of a single-valued predicate never ends a later one before it began', async (t) => {
  const s = await startToolDaemon({ 'People/Ana.md': ANA });
  t.teardown(() => s.stop());
  const d = s.d;
  const note = () => readFileSync(path.join(s.v.dir, 'People/Ana.md'), 'utf8');
  const livesIn = async (at: string) =>
    (await d.tool('memory_facts', { entity: 'Ana', predicate: 'lives_in', at })).body.facts.map((f: { object: string }) => f.object);

  const older = await d.tool('memory_add_fact', { subject: 'Ana', predicate: 'lives_in', object: 'Lisbon', valid_from: '2025-06-01' });
  t.equal(older.status, 200, JSON.stringify(older.body));
  t.match(older.body, { outcome: 'added', superseded: [] });
  t.match(note(), '- lives_in:: Berlin [from:: 2026-01-01]\n', 'the later value keeps its line as it was');
  t.match(note(), '- lives_in:: Lisbon [from:: 2025-06-01]\n');
  t.same(await livesIn('2025-07-01'), ['Lisbon']);
  t.same(await livesIn('2026-02-01'), ['Berlin'], 'the later value still holds from its own start');

  // a value after the current one's start still supersedes it, the day the new one begins
  const newer = await d.tool('memory_add_fact', { subject: 'Ana', predicate: 'lives_in', object: 'Porto', valid_from: '2026-06-01' });
  t.equal(newer.status, 200, JSON.stringify(newer.body));
  t.match(newer.body, { outcome: 'superseded' });
  t.match(note(), '- lives_in:: Berlin [from:: 2026-01-01] [until:: 2026-06-01]\n');
  t.same(await livesIn('2025-07-01'), ['Lisbon']);
  t.same(await livesIn('2026-02-01'), ['Berlin']);
  t.same(await livesIn('2026-07-01'), ['Porto']);
});
