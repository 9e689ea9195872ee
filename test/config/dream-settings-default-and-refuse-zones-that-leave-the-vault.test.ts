// The dream's settings: defaults as the README documents them, and refusals naming the path and the rule — a zone is
// a vault-relative folder, never `..`, absolute or with a backslash; limits are positive.
import t from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';

t.test('defaults', async (t) => {
  const c = loadConfig({ vault: '/tmp/v', env: {} });
  t.same(c.dream, {
    interval_s: 1800,
    max_days: 14,
    min_hours: 24,
    min_facts: 20,
    max_retries: 3,
    max_steps: 40,
    timeout_s: 600,
    zones: ['Memory/Wiki'],
    memory_max_lines: 200,
  });
  t.equal(c.dream.enabled, undefined, 'on when an llm section exists');
});

t.test('bad settings are refused naming their path and the rule', async (t) => {
  const file = configFile(
    t,
    'vault: /v\ndream:\n  zones: [Memory/Wiki, ../Outside, /etc, "A\\\\B"]\n  max_days: 0\n  max_steps: -1\n  surprise: 1\n',
  );
  const err = t.throws(() => loadConfig({ file, env: {} })) as unknown as ConfigError;
  t.ok(err instanceof ConfigError);
  const byPath = new Map(err.problems.map((p) => [p.path, p.rule]));
  t.notOk(byPath.has('dream.zones.0'), 'a good zone passes');
  for (const i of [1, 2, 3]) t.match(byPath.get(`dream.zones.${i}`), /vault-relative folder/);
  t.ok(byPath.has('dream.max_days'));
  t.ok(byPath.has('dream.max_steps'));
  t.match(byPath.get('dream'), /Unrecognized key\(s\) in object: 'surprise'/, 'an unknown key is refused');
});
