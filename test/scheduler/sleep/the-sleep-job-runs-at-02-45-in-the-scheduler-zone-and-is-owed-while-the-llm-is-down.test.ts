// The sleep job as the settings make it (coreJobs): on when an LLM is configured, at "45 2 * * *" in scheduler.tz by
// default, its budget 50,000 characters unless set; and on the scheduler core's injected clock it idles with the
// LLM's reason at its slot, is owed, and runs that slot once when the LLM is back — like every other LLM job.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ConfigError, loadConfig } from '../../../config/load.js';
import { coreJobs, idleReason, skillNamed } from '../../../actors/scheduler/jobs.js';
import { coreRig, flush, MIN, pass } from '../helpers/core-rig.js';

function config(t: { teardown(fn: () => unknown): void }, yaml: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-sleep-cfg-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'memvault.yaml');
  writeFileSync(file, `data_dir: ${JSON.stringify(path.join(dir, 'data'))}\n${yaml}`);
  return () => loadConfig({ file, vault: dir });
}

const LLM = 'llm:\n  base_url: http://127.0.0.1:9/v1\n  models: { default: m }\n';

t.test('defaults: on with an LLM, 02:45 in scheduler.tz, 50,000 characters', async (t) => {
  const cfg = config(t, `${LLM}scheduler:\n  tz: Europe/Lisbon\n`)();
  t.same(cfg.skills.sleep, { autonomy: 'medium', cron: '45 2 * * *', budget_chars: 50_000 });
  t.same(
    coreJobs(cfg, 'Europe/Lisbon').find((j) => j.name === 'sleep'),
    { name: 'sleep', enabled: true, schedule: { kind: 'cron', expr: '45 2 * * *', tz: 'Europe/Lisbon' } },
  );
  const off = config(t, '')();
  t.equal(coreJobs(off, 'UTC').find((j) => j.name === 'sleep')?.enabled, false, 'off without an LLM');
  t.equal(idleReason(cfg, skillNamed('sleep')!, 'llm_unreachable: down'), 'llm_unreachable: down', 'idles with the LLM’s reason');
  const set = config(t, `${LLM}skills:\n  sleep: { cron: "0 4 * * *", budget_chars: 20000, autonomy: low }\n`)();
  t.match(set.skills.sleep, { cron: '0 4 * * *', budget_chars: 20_000, autonomy: 'low' });
});

t.test('bad settings name the path and the rule', async (t) => {
  let err: unknown = null;
  try {
    config(t, 'skills:\n  sleep: { budget_chars: 10, cron: "every night" }\n')();
  } catch (e) {
    err = e;
  }
  t.ok(err instanceof ConfigError, 'refused');
  const msg = String((err as Error | null)?.message);
  t.match(msg, /skills\.sleep\.budget_chars/);
  t.match(msg, /skills\.sleep\.cron/);
});

t.test('at its slot with the LLM down it idles, is owed, and runs once when the LLM is back', async (t) => {
  const cfg = config(t, `${LLM}scheduler:\n  tz: Europe/Lisbon\n`)();
  const jobs = coreJobs(cfg, 'Europe/Lisbon').filter((j) => j.name === 'sleep');
  const r = coreRig(t, jobs, { start: '2026-11-26T02:44:00Z', tz: 'Europe/Lisbon' });
  r.idle.set('sleep', 'llm_unreachable: the endpoint does not answer');
  r.core.start();
  await pass(r.clock, 2 * MIN);
  t.same(r.runs, [], 'no run while idle');
  t.match(r.core.list()[0], { name: 'sleep', state: 'idle', last_run: { outcome: 'skipped', reason: /llm_unreachable/ } });
  r.idle.delete('sleep');
  r.core.poke();
  await flush();
  await flush();
  t.equal(r.runs.length, 1);
  t.match(r.runs[0], { job: 'sleep', slot: Date.parse('2026-11-26T02:45:00Z'), trigger: 'catch_up' }, 'Lisbon is on UTC in November');
  r.core.poke();
  await pass(r.clock, 10 * MIN, MIN);
  t.equal(r.runs.length, 1, 'once');
});
