// search.match_budget: the rows keyword search scores for one query before only its rarer words choose rows
// (actors/gateway/match-budget.ts). It defaults to the code's MATCH_BUDGET, reaches the searches' limits, and a value
// that is not a whole number in range is refused at startup, naming the field.
import t from 'tap';
import { MATCH_BUDGET } from '../../actors/gateway/match-budget.js';
import { configuredLimits } from '../../actors/gateway/index-view.js';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';

function load(t: { teardown(fn: () => void): void }, yaml: string) {
  const file = configFile(t, yaml);
  return () => loadConfig({ file, vault: '/tmp/v', env: {} });
}

t.test("defaults to the code's budget; a set one reaches the searches' limits", async (t) => {
  const cfg = loadConfig({ vault: '/tmp/v', env: {} });
  t.equal(cfg.search.match_budget, MATCH_BUDGET);
  t.equal(configuredLimits(cfg).matchBudget, MATCH_BUDGET);
  const set = load(t, 'search:\n  match_budget: 5000\n')();
  t.equal(configuredLimits(set).matchBudget, 5000);
  t.equal(configuredLimits(set).maxK, set.search.max_k, 'beside the other limits');
});

for (const bad of ['99', '1.5', '1000001', '"5k"']) {
  t.test(`match_budget: ${bad} is refused with config_invalid naming the field`, async (t) => {
    const err = t.throws(load(t, `search:\n  match_budget: ${bad}\n`)) as unknown as ConfigError;
    t.ok(err instanceof ConfigError);
    t.equal(err.code, 'config_invalid');
    t.ok(
      err.problems.some((p) => p.path === 'search.match_budget'),
      JSON.stringify(err.problems),
    );
  });
}
