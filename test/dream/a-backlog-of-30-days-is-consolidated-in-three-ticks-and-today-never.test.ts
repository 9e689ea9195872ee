// The gate driving real runs: 30 finished log days with max_days 14 are consolidated in three scheduled ticks half
// an hour apart (14, 14, 2 days, oldest first) though few facts are pending per the steady gate; today's log is never
// in a batch, and the steady gate then waits for min_hours and min_facts; the day logs stay byte-identical.
import t from 'tap';
import { readWatermark } from '../../actors/dream/journal.js';
import type { Recorded, Scripted } from '../helpers/fake-llm.js';
import { dreamRig, page } from './helpers/rig.js';

/** A model that writes one page per batch citing every fact it was shown, then stops. */
function pageWriter(r: Recorded): Scripted {
  const msgs = r.body.messages as Array<{ role: string; content: string }>;
  if (msgs.at(-1)?.role === 'tool') return { content: 'done' };
  const facts = [...msgs[0]!.content.matchAll(/^- (\d{4}-\d{2}-\d{2}#[0-9a-f]{8}): \S+ — \S+: (.*)$/gm)];
  const first = facts[0]![1]!.slice(0, 10);
  return {
    toolCalls: [
      {
        name: 'vault_write',
        arguments: {
          path: `Memory/Wiki/From ${first}.md`,
          content: page(
            facts.map((f) => f[1]!),
            `# From ${first}\n\n${facts.map((f) => `- ${f[2]}`).join('\n')}`,
          ),
        },
      },
    ],
  };
}

t.test('30 pending days, max_days 14: three ticks; today stays in the log', async (t) => {
  const days: Record<string, string[]> = {};
  const t0 = Date.parse('2026-10-26T00:00:00Z');
  for (let i = 0; i < 30; i++) {
    const date = new Date(t0 + i * 86_400_000).toISOString().slice(0, 10);
    days[date] = [`Fact of ${date} about the garden shed`];
  }
  days['2026-11-25'] = ['Written today, still in progress']; // today at the rig's start
  const r = await dreamRig(t, { start: '2026-11-25T10:00:00Z', days });
  const logs = r.logHashes();
  r.llm.respond(pageWriter);
  const batches: string[] = [];
  for (let tick = 1; tick <= 4; tick++) {
    const res = await r.cycle.tick();
    if (res.outcome === 'consolidated') batches.push(res.batch);
    else t.match(res, { outcome: 'idle', reason: 'nothing_pending' }, `tick ${tick}: caught up`);
    r.clock.advance(1_800_000); // dream.interval_s
  }
  t.same(batches, ['2026-10-26..2026-11-08', '2026-11-09..2026-11-22', '2026-11-23..2026-11-24']);
  t.equal(readWatermark(r.read('Memory/log.md')), '2026-11-24', 'the watermark stops before today');
  t.same((await r.cycle.status()).pending_days, [], "today's log is not pending");
  t.notMatch(
    JSON.stringify(r.llm.chats().map((c) => c.body.messages[0].content)),
    'Written today',
    'no prompt ever showed a fact of today',
  );
  t.match(
    r.events.filter((e) => e.event === 'dream_started').map((e) => e.fields['mode']),
    ['sprint', 'sprint', 'sprint'],
  );
  t.same(r.logHashes(), logs);

  r.clock.advance(86_400_000); // tomorrow: the 25th is finished, but one fact is below min_facts
  t.same((await r.cycle.status()).pending_days, ['2026-11-25']);
  t.match(await r.cycle.tick(), { outcome: 'idle', reason: 'too_few_facts' });
  t.match(
    await r.cycle.tick({ requested: true }),
    { outcome: 'consolidated', batch: '2026-11-25..2026-11-25' },
    'a request bypasses the gate',
  );
});
