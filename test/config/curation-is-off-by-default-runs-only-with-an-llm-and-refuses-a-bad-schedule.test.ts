// USER.md curation's settings: off by default (and then its job is off on the clock and idles with a reason when
// asked), on only with an LLM configured, and a bad schedule or limit refused naming its path and the rule.
import t from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { coreJobs, idleReason, skillNamed } from '../../actors/scheduler/jobs.js';
import { configFile } from '../helpers/config-file.js';

function load(t: { teardown(fn: () => void): void }, yaml: string) {
  const file = configFile(t, `vault: /v\n${yaml}`);
  return () => loadConfig({ file, env: {} });
}

const LLM = 'llm:\n  base_url: http://127.0.0.1:9/v1\n  models: { default: m }\n';

t.test('defaults: off, 04:30 daily, three days of material', async (t) => {
  const c = loadConfig({ vault: '/tmp/v', env: {} });
  t.same(c.curation, { enabled: false, schedule: '30 4 * * *', lookback_days: 3, max_material_chars: 20_000 });
  const off = load(t, LLM)();
  t.match(
    coreJobs(off, 'UTC').find((j) => j.name === 'curation'),
    { enabled: false, schedule: { kind: 'cron', expr: '30 4 * * *', tz: 'UTC' } },
    'an LLM alone does not turn it on',
  );
  t.match(idleReason(off, skillNamed('curation')!, null, true), /^curation_disabled: /, 'asked for while off: idles, saying why');
});

t.test('on with an LLM; on without one stays off the clock', async (t) => {
  const on = load(t, `${LLM}curation:\n  enabled: true\n  schedule: "0 6 * * 1"\n`)();
  t.match(
    coreJobs(on, 'Europe/Berlin').find((j) => j.name === 'curation'),
    { enabled: true, schedule: { expr: '0 6 * * 1' } },
  );
  t.equal(idleReason(on, skillNamed('curation')!, null), null);
  t.equal(idleReason(on, skillNamed('curation')!, 'llm_unreachable: down'), 'llm_unreachable: down', 'the LLM’s state, like any skill');
  const noLlm = load(t, 'curation:\n  enabled: true\n')();
  t.match(
    coreJobs(noLlm, 'UTC').find((j) => j.name === 'curation'),
    { enabled: false },
  );
});

t.test('bad settings are refused naming their path and the rule', async (t) => {
  const err = t.throws(load(t, 'curation:\n  schedule: "every night"\n  lookback_days: 0\n  surprise: 1\n')) as unknown as ConfigError;
  t.ok(err instanceof ConfigError);
  const byPath = new Map(err.problems.map((p) => [p.path, p.rule]));
  t.match(byPath.get('curation.schedule'), /not a cron expression/);
  t.ok(byPath.has('curation.lookback_days'));
  t.match(byPath.get('curation'), /Unrecognized key\(s\) in object: 'surprise'/);
});
