// deploy/prometheus: the alert rules pass `promtool check rules`, every alert has a runbook and a unit test in
// alerts.test.yml that fires it (and `promtool test rules` passes), and the example scrape config passes
// `promtool check config`.
import t from 'tap';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { DEPLOY, missing, run } from './tools.js';

const PROM = path.join(DEPLOY, 'prometheus');
const skip = missing('promtool', 'prometheus');
if (skip) t.comment(`skipped: ${skip}`);

interface Rule {
  alert: string;
  expr: string;
  annotations?: Record<string, string>;
}

const rules = (parse(readFileSync(path.join(PROM, 'alerts.yml'), 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap(
  (g) => g.rules,
);

t.test('every alert has a summary, a severity and a runbook', async (t) => {
  t.same(
    rules.map((r) => r.alert).sort(),
    [
      'MemvaultActorRestarting',
      'MemvaultDiskFull',
      'MemvaultEmbedderDegraded',
      'MemvaultGitWritesFailing',
      'MemvaultIndexLagHigh',
      'MemvaultScrapeDown',
    ],
    'lag, restarts, embedder degraded, git writes failing, disk full, scrape down',
  );
  for (const r of rules) {
    t.ok((r.annotations?.['runbook'] ?? '').length > 120, `${r.alert} has a runbook that says what to do`);
    t.ok(r.annotations?.['summary'], `${r.alert} has a summary`);
  }
});

t.test('promtool checks the rules and the scrape config', { skip }, async (t) => {
  const rulesCheck = run('promtool', ['check', 'rules', path.join(PROM, 'alerts.yml')]);
  t.equal(rulesCheck.status, 0, rulesCheck.out);
  t.match(rulesCheck.out, /SUCCESS: 6 rules found/);
  const config = run('promtool', ['check', 'config', path.join(PROM, 'prometheus.yml')]);
  t.equal(config.status, 0, config.out);
});

t.test('each alert fires in its promtool unit test, and a broken rule fails them', { skip }, async (t) => {
  const tests = parse(readFileSync(path.join(PROM, 'alerts.test.yml'), 'utf8')) as {
    tests: Array<{ alert_rule_test: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
  };
  const fired = new Set(tests.tests.flatMap((x) => x.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)));
  const quiet = new Set(tests.tests.flatMap((x) => x.alert_rule_test.filter((a) => a.exp_alerts.length === 0).map((a) => a.alertname)));
  for (const r of rules) {
    t.ok(fired.has(r.alert), `${r.alert} is expected to fire in a unit test`);
    t.ok(quiet.has(r.alert), `${r.alert} is expected to stay quiet before its threshold`);
  }
  const ok = run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: PROM });
  t.equal(ok.status, 0, ok.out);

  // the same tests against a rule file whose disk threshold is off must fail: the tests do check the thresholds
  const dir = mkdtempSync(path.join(tmpdir(), 'memvault-alerts-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(path.join(PROM, 'alerts.test.yml'), path.join(dir, 'alerts.test.yml'));
  const text = readFileSync(path.join(PROM, 'alerts.yml'), 'utf8');
  t.ok(text.includes('< 0.05'), 'the disk rule is where the test expects it');
  writeFileSync(path.join(dir, 'alerts.yml'), text.replace('< 0.05', '< 0.0001').replace('< 1073741824', '< 1'));
  const broken = run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: dir });
  t.not(broken.status, 0, 'a loosened disk rule fails its unit test');
  t.match(broken.out, /MemvaultDiskFull/);
});
