// `agents add` refuses `alice` beside `Alice` now, but an agents.json from before may hold such a pair: they read as
// one agent in commits, the audit trail and `memvault audit --agent`. `memvault doctor` and `memvault agents list`
// warn of each such pair, naming both and saying to revoke one; nothing fails for it (doctor exits 0).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../../helpers/daemon.js';
import { memvault } from '../../helpers/run-cli.js';

t.test('agents whose names differ only in letter case are reported by doctor and agents list', async (t) => {
  const v = makeVault({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const cli = (...args: string[]) => memvault([...args, '--config', cfg.config_file!, '--vault', v.dir]);
  const file = path.join(cfg.data_dir, 'agents.json');

  for (const name of ['Alice', 'bob', 'carol']) t.equal((await cli('agents', 'add', name, '--scope', 'write')).code, 0);
  const clean = JSON.parse((await cli('doctor', '--json')).stdout) as {
    checks: Array<{ name: string; ok: boolean; detail: string; warn?: boolean }>;
  };
  t.match(
    clean.checks.find((c) => c.name === 'agents'),
    { ok: true, detail: '3 agents, no two names differing only in letter case' },
  );
  t.notOk(clean.checks.find((c) => c.name === 'agents')?.warn);
  t.equal((await cli('agents', 'list')).stderr, '', 'no warning while the names are distinct');

  // as an agents.json from before the refusal holds them: bob's record renamed to alice
  const f = JSON.parse(readFileSync(file, 'utf8'));
  f.agents[1].name = 'alice';
  writeFileSync(file, JSON.stringify(f));
  const warning =
    'agent_names_differ_in_case: agents "Alice" and "alice" differ only in letter case, so commits, the audit trail and ' +
    '`memvault audit --agent` read them as one agent; revoke all but one (`memvault agents revoke alice`) and add it again under another name';

  const doc = await cli('doctor');
  t.equal(doc.code, 0, 'a warning fails nothing');
  t.match(doc.stdout, `\nWARN  agents     ${warning}\n`);
  const docJson = JSON.parse((await cli('doctor', '--json')).stdout) as typeof clean & { ok: boolean };
  t.match(
    docJson.checks.find((c) => c.name === 'agents'),
    { ok: true, warn: true, detail: warning },
  );

  const list = await cli('agents', 'list');
  t.equal(list.code, 0);
  t.equal(list.stderr, `memvault: warning: ${warning}\n`);
  t.match(list.stdout, /\nAlice\s+write/);
  t.match(list.stdout, /\nalice\s+write/);
  const listJson = JSON.parse((await cli('agents', 'list', '--json')).stdout);
  t.same(listJson.warnings, [
    { reason: 'agent_names_differ_in_case', names: ['Alice', 'alice'], message: warning.replace(/^[a-z_]+: /, '') },
  ]);

  // revoking one as told clears the warning; the other keeps its credential
  t.equal((await cli('agents', 'revoke', 'alice')).code, 0);
  t.equal((await cli('agents', 'list')).stderr, '');
  t.match(
    JSON.parse((await cli('doctor', '--json')).stdout).checks.find((c: { name: string }) => c.name === 'agents'),
    {
      ok: true,
      detail: '2 agents, no two names differing only in letter case',
    },
  );
  t.same(
    JSON.parse(readFileSync(file, 'utf8')).agents.map((a: { name: string }) => a.name),
    ['Alice', 'carol'],
  );
});
