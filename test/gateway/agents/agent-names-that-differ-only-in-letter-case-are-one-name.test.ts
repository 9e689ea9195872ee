// `memvault agents add alice` beside an agent named `Alice` is refused as the same name (exit 1, `exists`, naming the
// agent it collides with): two agents whose names differ only in letter case read as one in commits, the audit trail
// and `memvault audit --agent`. The first keeps its credential; nothing is written for the second.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../../helpers/daemon.js';
import { memvault } from '../../helpers/run-cli.js';

t.test('agent names that differ only in letter case are one name', async (t) => {
  const v = makeVault({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const cli = (...args: string[]) => memvault([...args, '--config', cfg.config_file!, '--vault', v.dir]);

  const first = await cli('agents', 'add', 'Alice', '--scope', 'write');
  t.equal(first.code, 0, first.stderr);
  const before = readFileSync(path.join(cfg.data_dir, 'agents.json'), 'utf8');
  for (const name of ['alice', 'ALICE', 'aLiCe']) {
    const r = await cli('agents', 'add', name, '--scope', 'admin');
    t.equal(r.code, 1, `${name}: ${r.stderr}`);
    t.equal(r.stdout, '', 'no token printed');
    t.equal(
      r.stderr,
      `memvault: an agent named "Alice" exists, and "${name}" differs from it only in letter case (agent names are one name in any case); choose another name, or revoke "Alice" first\n`,
    );
  }
  t.equal(readFileSync(path.join(cfg.data_dir, 'agents.json'), 'utf8'), before, 'agents.json is unchanged');
  t.equal((await cli('agents', 'add', 'Alice2', '--scope', 'read')).code, 0, 'another name is fine');
  const again = await cli('agents', 'add', 'Alice', '--scope', 'read');
  t.equal(again.code, 1);
  t.match(again.stderr, 'an agent named "Alice" exists; revoke it first, or rotate its token', 'the exact name is refused as before');
});

t.test('rotate, revoke and audit --agent take an agent name in any letter case', async (t) => {
  const v = makeVault({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const cli = (...args: string[]) => memvault([...args, '--config', cfg.config_file!, '--vault', v.dir]);
  t.equal((await cli('agents', 'add', 'Alice', '--scope', 'write')).code, 0);
  // a call Alice made, as the gateway writes it
  const day = new Date().toISOString().slice(0, 10);
  mkdirSync(path.join(cfg.data_dir, 'audit'), { recursive: true });
  const entry = {
    t: new Date().toISOString(),
    agent: 'Alice',
    kind: 'agent',
    tool: 'memory_search',
    transport: 'http',
    outcome: 'ok',
    ms: 3,
  };
  writeFileSync(path.join(cfg.data_dir, 'audit', `${day}.jsonl`), `${JSON.stringify(entry)}\n`);

  const audit = await cli('audit', '--agent', 'ALICE', '--json');
  t.equal(audit.code, 0, audit.stderr);
  t.match(audit.stdout, '"agent": "Alice"', "ALICE finds Alice's calls");

  const rotated = await cli('agents', 'rotate', 'alice');
  t.equal(rotated.code, 0, rotated.stderr);
  t.match(rotated.stderr, 'agent Alice has a new token', 'named as stored');
  const revoked = await cli('agents', 'revoke', 'ALICE');
  t.equal(revoked.code, 0, revoked.stderr);
  t.equal(revoked.stdout, 'agent Alice revoked: its token is refused from its next request\n');
  t.same(JSON.parse(readFileSync(path.join(cfg.data_dir, 'agents.json'), 'utf8')).agents, [], 'Alice is gone');
  t.equal((await cli('agents', 'revoke', 'alice')).code, 1, 'and a second revoke finds no one');
});
