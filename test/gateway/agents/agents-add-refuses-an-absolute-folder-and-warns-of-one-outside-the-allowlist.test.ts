// `memvault agents add --folders`: an absolute folder (`/abs`) is a usage error (exit 2), not quietly `abs`; a folder
// outside writes.allowlist is added, with a warning on stderr that the agent will be refused writes there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../../helpers/daemon.js';
import { memvault } from '../../helpers/run-cli.js';

t.test('agents add refuses an absolute folder and warns of one outside the allowlist', async (t) => {
  const v = makeVault({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const cli = (...args: string[]) => memvault([...args, '--config', cfg.config_file!, '--vault', v.dir]);
  const agents = () => JSON.parse(readFileSync(path.join(cfg.data_dir, 'agents.json'), 'utf8')).agents as any[];

  const abs = await cli('agents', 'add', 'abs-agent', '--scope', 'write', '--folders', 'Inbox,/abs');
  t.equal(abs.code, 2, abs.stderr);
  t.match(abs.stderr, /--folders holds "\/abs".*vault-relative/s, 'says the folder must be vault-relative');
  t.equal(abs.stdout, '', 'no token is printed');

  const secrets = await cli('agents', 'add', 'secret-agent', '--scope', 'write', '--folders', 'Inbox,Secrets/Deep');
  t.equal(secrets.code, 0, secrets.stderr);
  t.match(secrets.stderr, /warning: .*Secrets\/Deep.*writes\.allowlist/, 'warns of the folder outside the allowlist');
  t.match(secrets.stderr, /secret-agent will be refused writes there/);
  t.notMatch(secrets.stderr, /"Inbox"/, 'and not of the allowed one');
  t.match(agents(), [{ name: 'secret-agent', folders: ['Inbox', 'Secrets/Deep'] }], 'the agent is added as asked');

  const fine = await cli('agents', 'add', 'inbox-agent', '--scope', 'write', '--folders', 'Inbox/Sub');
  t.equal(fine.code, 0, fine.stderr);
  t.notMatch(fine.stderr, /warning/, 'a folder inside the allowlist draws no warning');
});
