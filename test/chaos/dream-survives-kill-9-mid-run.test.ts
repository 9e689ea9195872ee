// kill -9 the real daemon (a separate process) in the middle of dream runs, twice: the day logs byte-identical, the
// watermark unchanged, the finished writes whole commits, and the next run resumes (`make chaos`, part `dream`).
import t from 'tap';
import { runDreamKill } from './dream-kill.js';

t.test('a kill -9 mid-run loses nothing and the next run resumes', { timeout: 300_000 }, async (t) => {
  const seed = Number(process.env.MEMVAULT_CHAOS_SEED ?? Date.now() % 1_000_000);
  const r = await runDreamKill({ cycles: 2, seed, log: (l) => t.comment(l) });
  t.comment(`seed ${seed}: ${JSON.stringify(r)}`);
  t.equal(r.cycles, 2, 'every cycle ran to its kill');
  t.ok(r.pagesBeforeKill >= 2, 'the killed runs had written pages');
  t.same(r.problems, [], 'no problems');
  t.ok(r.watermark, 'the resumed run advanced the watermark');
});
