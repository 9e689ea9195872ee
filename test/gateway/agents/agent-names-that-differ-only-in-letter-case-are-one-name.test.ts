// `memvault agents add alice` beside an agent named `Alice` is refused as the same name (exit 1, `exists`, naming the
// agent it collides with): two agents whose names differ only in letter case read as one in commits, the audit trail
// and `memvault audit --agent`. The first keeps its credential; nothing is written for the second.
import { readFileSync } from 'node:fs';
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
