// The tests run compiled JS from dist/, so package.json turns tap's TypeScript and mock plugins off. tap takes a changed
// plugin list only after `tap build`, and the run that rebuilds it still starts every file with the old plugins'
// loaders; a daemon's threads inherit them and load every module through their hooks. That is what a fresh clone's
// first `npx tap` did: a daemon test file took 125-132 s instead of 23-24 s, and CI's `make test` ran 23-36 min where
// the same files take ~14. `make test` now rebuilds tap after `npm ci` (Makefile, TAP_BUILT); this file fails if not.
import t from 'tap';

const PLUGIN_LOADER = /@tapjs[\\/](?:typescript|mock)[\\/]/;

t.test('no tap plugin loader is in the test process (run `npx tap build` after `npm ci`, as make test does)', (t) => {
  const args = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)];
  t.same(
    args.filter((a) => PLUGIN_LOADER.test(a)),
    [],
    'execArgv and NODE_OPTIONS name neither @tapjs/typescript nor @tapjs/mock',
  );
  t.ok(
    process.execArgv.some((a) => a.includes('@tapjs/processinfo')),
    'the file runs under tap (its processinfo loader)',
  );
  t.end();
});
