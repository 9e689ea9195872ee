// Issue 4, part 4 in CI: 4,000 generated hostile inputs against the gateway and the watcher, every kind each
// generator makes among them — none escapes the vault, none crashes anything, each is refused with the right reason
// (the seed is printed to reproduce a failure). `make chaos` runs 20,000 of the same generators.
import t from 'tap';
import { runHostile } from './hostile.js';

// 4,000 is the smallest round size whose sample (seed 3) holds every kind of every category; 10,000 added only more
// of the same kinds, at 20 s per 1,000 on the serial chaos phase of `make test`
const INPUTS = 4_000;

t.test('4,000 hostile inputs of every kind: no escape from the vault, no crash, each refused with its reason', async (t) => {
  t.setTimeout(20 * 60_000); // ~1.5 min on a quiet machine; generous for a loaded one
  // CI runs one fixed seed, so a red run is a regression, not a draw; `make chaos` and HOSTILE_SEED explore others
  const fixedSeed = !process.env['HOSTILE_SEED'];
  const seed = fixedSeed ? 3 : Number(process.env['HOSTILE_SEED']);
  const r = await runHostile({ inputs: INPUTS, seed, log: (l) => t.comment(l) });
  t.comment(
    `seed ${r.seed}: ${r.tried} inputs in ${(r.ms / 1000).toFixed(1)} s (${(((r.ms / r.tried) * 1000) / 1000).toFixed(2)} s per 1,000) — ${JSON.stringify(r.byCategory)}`,
  );
  for (const p of r.problems) t.comment(p);
  t.ok(r.tried >= INPUTS, `tried ${r.tried} inputs`);
  for (const [k, v] of Object.entries(r.byCategory))
    if (!['supervisor', 'checks', 'final'].includes(k)) t.ok(v >= 300, `${k}: ${v} inputs`);
  const kinds = Object.entries(r.kinds).map(([k, v]) => `${k} ${Object.keys(v).length}`);
  // another seed's sample of this size may miss a rare kind: that is a smaller draw, not a fault, so only reported
  if (fixedSeed) t.same(r.missingKinds, [], `every kind of every category was tried (${kinds.join(', ')})`);
  else t.comment(`kinds never tried with seed ${seed}: ${r.missingKinds.join('; ') || 'none'}`);
  t.equal(r.escaped, 0, 'nothing escaped the vault');
  t.equal(r.crashed, 0, 'nothing crashed');
  t.equal(r.wrongReason, 0, 'every input got the outcome it should');
  t.same(r.problems, [], 'no problems');
});
