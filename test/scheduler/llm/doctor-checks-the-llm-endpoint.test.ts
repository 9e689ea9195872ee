// `memvault doctor` checks the configured LLM endpoint: a server that answers passes (and says which configured
// models it does not list), one that is not there fails with the reason, and no `llm` section passes as "not
// configured"; it checks the skills' templates too, naming a broken override's file and line.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../../helpers/daemon.js';
import { FakeLlm } from '../../helpers/fake-llm.js';
import { memvault } from '../../helpers/run-cli.js';

type Check = { ok: boolean; detail: string };
async function doctor(vault: string, configFile: string): Promise<{ code: number; llm: Check; templates: Check }> {
  const r = await memvault(['doctor', '--vault', vault, '--config', configFile, '--json']);
  const out = JSON.parse(r.stdout) as { checks: Array<{ name: string } & Check> };
  return { code: r.code, llm: out.checks.find((c) => c.name === 'llm')!, templates: out.checks.find((c) => c.name === 'templates')! };
}

t.test('doctor: a reachable endpoint passes, a missing one fails with why, none is not configured', async (t) => {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  const v = makeVault({ 'Inbox/a.md': '# a\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const file = cfg.config_file!;
  const base = (await import('node:fs')).readFileSync(file, 'utf8');

  llm.models = { status: 200, ids: ['llama3.1:8b'] };
  writeFileSync(file, `${base}llm:\n  base_url: ${llm.url}\n  models: { default: llama3.1:8b, small: qwen2.5:3b }\n`);
  const up = await doctor(v.dir, file);
  t.equal(up.llm.ok, true, up.llm.detail);
  t.match(up.llm.detail, /answers in \d+ ms, serves llama3\.1:8b; not listed by the server: qwen2\.5:3b/);
  t.ok(
    llm.requests.some((r) => r.method === 'GET' && r.path === '/v1/models'),
    'asked GET /v1/models',
  );
  t.equal(llm.chats().length, 0, 'no chat call spent when /models answers');

  await llm.close();
  const down = await doctor(v.dir, file);
  t.equal(down.llm.ok, false);
  t.match(down.llm.detail, /^unreachable: .*ECONNREFUSED/);
  t.equal(down.code, 1, 'doctor exits 1 when a check fails');

  writeFileSync(file, base);
  const none = await doctor(v.dir, file);
  t.equal(none.llm.ok, true);
  t.match(none.llm.detail, /not configured/);
  t.match(none.templates, { ok: true, detail: /bundled/ });

  // a broken template override is named with its file and line
  mkdirSync(path.join(v.dir, '..', 'tpl', 'llm'), { recursive: true });
  writeFileSync(path.join(v.dir, '..', 'tpl', 'llm', 'weekly_review.liquid'), 'Review {{ week.label }}\n{% if previous %}\n');
  writeFileSync(file, `${base}templates:\n  dir: ./tpl\n`);
  const broken = await doctor(v.dir, file);
  t.match(broken.templates, { ok: false, detail: /tpl\/llm\/weekly_review\.liquid line 2: tag \{% if previous %\} not closed/ });
});
