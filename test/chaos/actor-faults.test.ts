// Every actor kind survives throw / exit / hang faults with queued work: restarted per spec, escalation past the
// intensity limit, growing backoff, no note lost. Fault → serving is a figure, not an assertion: `make chaos` reports it
// beside the 1 s goal (a shared 2-core machine makes timed tests flaky).
import t from 'tap';
import { runActorFaults } from './actor-faults.js';

t.test('actor faults lose no work and every actor serves again', { timeout: 600_000 }, async (t) => {
  const r = await runActorFaults({ rounds: 1, log: (line) => t.comment(line) });
  t.comment(`fault→serving ms: ${JSON.stringify(r.faultToServingMs)}; fault→searchable ms: ${JSON.stringify(r.faultToSearchableMs)}`);
  t.same(r.problems, [], 'no divergence');
  t.equal(r.lostWork, 0, 'no queued note lost');
  for (const actor of ['store', 'embedder', 'chunker', 'watcher', 'gateway', 'git'])
    t.ok((r.restartsByActor[actor] ?? 0) >= 3, `the ${actor} was restarted after each of its faults`);
  t.ok(r.escalations >= 1, 'the intensity limit escalated');
  t.equal(r.faultToServingMs.length, 18, 'every fault was timed');
  t.ok(
    r.backoffDelaysMs.length >= 2 && r.backoffDelaysMs.at(-1)! > r.backoffDelaysMs[0]!,
    `restart delays grow (${JSON.stringify(r.backoffDelaysMs)} ms)`,
  );
});
