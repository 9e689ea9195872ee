// The `agents:` and `audit:` settings: defaults as documented, and refusals naming the path and the rule.
import t from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';

function load(t: { teardown(fn: () => void): void }, text: string) {
  const file = configFile(t, `vault: /v\n${text}`);
  return () => loadConfig({ file, env: {} });
}

t.test('defaults', async (t) => {
  const c = loadConfig({ vault: '/tmp/v', env: {} });
  t.equal(c.agents.default_rate, '20/s');
  t.equal(c.audit.max_mb, 64);
});

t.test('a rate is N/s, N/m or N/h; the audit cap is positive', async (t) => {
  t.equal(load(t, 'agents:\n  default_rate: 600/m\n')().agents.default_rate, '600/m');
  const problems = (text: string) => {
    try {
      load(t, text)();
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
    return [];
  };
  for (const bad of ['20', '20/d', '0/s', 'fast'])
    t.match(
      problems(`agents:\n  default_rate: ${JSON.stringify(bad)}\n`),
      [{ path: 'agents.default_rate', rule: /N\/s, N\/m or N\/h/ }],
      bad,
    );
  t.match(problems('audit:\n  max_mb: 0\n'), [{ path: 'audit.max_mb' }]);
  t.match(problems('agents:\n  tokens: []\n'), [{ path: 'agents' }], 'unknown keys are refused');
});
