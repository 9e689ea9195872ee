// `memvault audit --refused` lists every call refused for what it asked — a path outside the vault's reach
// (`.memvault/token`: path_escape), a folder outside the grant, bad arguments — not only forbidden, sensitive,
// rate_limited and unauthorized ones. Calls that succeeded, or found nothing there, are left out.
import t from 'tap';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { memvault } from '../../helpers/run-cli.js';
import { agent, toolAs } from './helpers.js';

t.test('audit --refused lists every refusal an agent got', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  const cli = (...args: string[]) => memvault([...args, '--config', s.cfg.config_file!, '--vault', s.v.dir]);
  const tok = agent(s.cfg.data_dir, 'prober', { scope: 'write', folders: ['Inbox'] });

  t.equal((await toolAs(s.d.url, tok, 'vault_read', { path: 'Inbox/Seed.md' })).status, 200);
  t.equal((await toolAs(s.d.url, tok, 'vault_read', { path: '.memvault/token' })).body.error.reason, 'path_escape');
  t.equal((await toolAs(s.d.url, tok, 'vault_write', { path: 'Inbox/x.txt', content: 'x' })).body.error.reason, 'not_markdown');
  t.equal((await toolAs(s.d.url, tok, 'vault_read', { path: 'Inbox/None.md' })).body.error.reason, 'not_found');
  t.equal((await toolAs(s.d.url, tok, 'vault_write', { path: 'Projects/P.md', content: '# P\n' })).body.error.reason, 'forbidden');

  const r = await cli('audit', '--refused', '--agent', 'prober', '--json');
  t.equal(r.code, 0, r.stderr);
  t.same(
    JSON.parse(r.stdout).entries.map((e: { tool: string; outcome: string }) => [e.tool, e.outcome]),
    [
      ['vault_read', 'path_escape'],
      ['vault_write', 'not_markdown'],
      ['vault_write', 'forbidden'],
    ],
    'every refusal, and neither the read that worked nor the note that was not there',
  );
});
