// Issue 4, part 4 in CI: 10,000 generated hostile inputs against the gateway and the watcher — none escapes the
// vault, none crashes anything, each is refused with the right reason (the seed is printed to reproduce a failure).
import t from 'tap';
import { runHostile } from './hostile.js';

t.test('10,000 hostile inputs: no escape from the vault, no crash, each refused with its reason', async (t) => {
  t.setTimeout(20 * 60_000); // ~3 min on a quiet machine; generous for a loaded one
  // CI runs one fixed seed, so a red run is a regression, not a draw; `make chaos` and HOSTILE_SEED explore others
  const seed = process.env['HOSTILE_SEED'] ? Number(process.env['HOSTILE_SEED']) : 3;
  const r = await runHostile({ inputs: 10_000, seed, log: (l) => t.comment(l) });
  t.comment(
    `seed ${r.seed}: ${r.tried} inputs in ${(r.ms / 1000).toFixed(1)} s (${(((r.ms / r.tried) * 1000) / 1000).toFixed(2)} s per 1,000) — ${JSON.stringify(r.byCategory)}`,
  );
  for (const p of r.problems) t.comment(p);
  t.ok(r.tried >= 10_000, `tried ${r.tried} inputs`);
  for (const [k, v] of Object.entries(r.byCategory))
    if (!['supervisor', 'checks', 'final'].includes(k)) t.ok(v >= 300, `${k}: ${v} inputs`);
  t.equal(r.escaped, 0, 'nothing escaped the vault');
  t.equal(r.crashed, 0, 'nothing crashed');
  t.equal(r.wrongReason, 0, 'every input got the outcome it should');
  t.same(r.problems, [], 'no problems');
});
