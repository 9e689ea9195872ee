// kill -9 the real daemon (a separate process) during bursts of episodes, twice: every acknowledged episode is
// in the journal and, once the daemon has caught up, in the index (the long run is `make chaos`, part `episodes`).
import t from 'tap';
import { runEpisodeCrash } from './episodes-burst.js';

t.test('a kill -9 during a burst loses no acknowledged episode', { timeout: 300_000 }, async (t) => {
  const seed = Number(process.env.MEMVAULT_CHAOS_SEED ?? Date.now() % 1_000_000);
  const r = await runEpisodeCrash({ cycles: 2, seed, log: (l) => t.comment(l) });
  t.comment(`seed ${seed}: ${JSON.stringify({ ...r, problems: r.problems.length })}`);
  t.equal(r.cycles, 2, 'every cycle ran to its kill');
  t.same(r.problems, [], 'no problems');
  t.equal(r.lost, 0, 'no acknowledged episode lost from the journal');
  t.equal(r.notProjected, 0, 'every acknowledged episode in the index after the restart');
  t.ok(r.acknowledged >= 2 * 20, `the load ran: ${r.acknowledged} acknowledged episodes`);
});
