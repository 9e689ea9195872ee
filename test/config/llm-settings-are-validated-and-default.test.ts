// The `llm:` section: defaults (60 s, 3 retries, no routes, no prices), and every mistake named by its path —
// a route to an alias that `models` lacks, a base_url that is not http(s), an env var name that is not one.
import t from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';

function load(t: { teardown(fn: () => void): void }, text: string) {
  const file = configFile(t, (dir) => `vault: ${dir}\n${text}`);
  return () => loadConfig({ file, env: {} });
}

t.test('an llm section gets its defaults; none at all is allowed', async (t) => {
  t.equal(load(t, '')().llm, undefined, 'no llm: the skills idle');
  const c = load(t, 'llm:\n  base_url: http://127.0.0.1:11434/v1\n  models: { default: llama3.1:8b }\n')();
  t.same(c.llm, {
    base_url: 'http://127.0.0.1:11434/v1',
    models: { default: 'llama3.1:8b' },
    routes: {},
    timeout_s: 60,
    max_retries: 3,
    prices: {},
  });
});

t.test('llm mistakes are named by path and rule', async (t) => {
  const err = t.throws(
    load(
      t,
      [
        'llm:',
        '  base_url: ftp://models.example/v1',
        '  api_key_env: "not a name"',
        '  models: { small: qwen2.5:3b }',
        '  routes: { commitment_log: tiny }',
        '  max_retries: -1',
        '  prices: { gpt-4o-mini: { in_per_mtok: -1, out_per_mtok: 0.6 } }',
        '',
      ].join('\n'),
    ),
  ) as unknown as ConfigError;
  t.ok(err instanceof ConfigError);
  const byPath = Object.fromEntries(err.problems.map((p) => [p.path, p.rule]));
  t.match(byPath['llm.base_url'], /http or https/);
  t.match(byPath['llm.api_key_env'], /environment variable/);
  t.match(byPath['llm.models.default'], /Required|must name a model/);
  t.match(byPath['llm.max_retries'], /greater than or equal to 0/);
  t.match(byPath['llm.prices.gpt-4o-mini.in_per_mtok'], /not be negative/);
  const routes = t.throws(
    load(t, 'llm:\n  base_url: http://h/v1\n  models: { default: m }\n  routes: { commitment_log: tiny }\n'),
  ) as unknown as ConfigError;
  t.match(routes.problems, [{ path: 'llm.routes.commitment_log', rule: /alias "tiny", which is not in llm.models \(default\)/ }]);
});
