// `memvault agents add|list|revoke|rotate` edit agents.json under a running daemon: the new token works at once,
// a revoked one is refused on its next request and a rotated-out one likewise — no restart — audited under the agent. The token is printed
// once and never stored; agents.json is 0600.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { memvault } from '../../helpers/run-cli.js';
import { toolAs } from './helpers.js';

t.test('revoke and rotate take effect on the next request', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  const cli = (...args: string[]) => memvault([...args, '--config', s.cfg.config_file!, '--vault', s.v.dir]);

  const add = await cli('agents', 'add', 'courier', '--scope', 'write', '--folders', 'Inbox', '--rate', '50/s');
  t.equal(add.code, 0, add.stderr);
  const token = add.stdout.trim();
  t.match(token, /^mv_[A-Za-z0-9_-]{43}$/, 'mv_ and 32 random bytes');
  const file = path.join(s.cfg.data_dir, 'agents.json');
  t.equal(statSync(file).mode & 0o777, 0o600, 'agents.json is 0600');
  t.notOk(readFileSync(file, 'utf8').includes(token.slice(3)), 'only a hash is stored');
  t.equal(
    (await cli('agents', 'add', 'courier', '--scope', 'read')).code,
    1,
    'a second agent of that name is refused (a failure, not a usage error)',
  );
  t.equal((await cli('agents', 'add', 'x', '--scope', 'owner')).code, 2, 'an unknown scope is refused');

  const read = (tok: string) => toolAs(s.d.url, tok, 'vault_read', { path: 'Inbox/Seed.md' });
  t.equal((await read(token)).status, 200, 'the new token works without a restart');

  const list = await cli('agents', 'list', '--json');
  t.equal(list.code, 0);
  const listed = JSON.parse(list.stdout).agents;
  t.match(listed, [{ name: 'courier', scope: 'write', folders: ['Inbox'], rate: '50/s', last_used: /^\d{4}-/ }]);
  t.notOk(list.stdout.includes(token.slice(3)), 'list never shows a token');

  const rot = await cli('agents', 'rotate', 'courier');
  t.equal(rot.code, 0);
  const rotated = rot.stdout.trim();
  t.not(rotated, token);
  const old = await read(token);
  t.equal(old.status, 401, 'the old token is refused once rotated');
  t.match(old.body.error, { reason: 'unauthorized', message: /this token was rotated out/ }, 'and told so, not to send a token');
  t.equal((await read(rotated)).status, 200, 'the new one works');

  t.equal((await cli('agents', 'revoke', 'courier')).code, 0);
  const gone = await read(rotated);
  t.equal(gone.status, 401, 'a revoked token is refused on its next request');
  t.match(gone.body.error, { reason: 'unauthorized', message: /this token was revoked/ }, 'and told it was revoked');
  t.notMatch(gone.body.error.message, /courier/, 'without naming the agent');
  const twice = await cli('agents', 'revoke', 'courier');
  t.equal(twice.code, 1, 'revoking twice says there is no such agent');
  t.equal(twice.stderr, 'memvault: no agent named "courier"\n', 'once, without the usage text');
  t.equal((await read(s.d.token)).status, 200, 'the owner token stays');

  // the old tokens' refusals are courier's too, as what they are
  const audit = await cli('audit', '--agent', 'courier', '--json');
  t.same(
    JSON.parse(audit.stdout).entries.map((e: { tool: string; outcome: string }) => [e.tool, e.outcome]),
    [
      ['vault_read', 'ok'],
      ['route:tool', 'rotated'],
      ['vault_read', 'ok'],
      ['route:tool', 'revoked'],
    ],
  );
  const refused = await cli('audit', '--refused', '--since', '1h', '--json');
  t.same(
    JSON.parse(refused.stdout).entries.map((e: { agent: string; outcome: string }) => [e.agent, e.outcome]),
    [
      ['courier', 'rotated'],
      ['courier', 'revoked'],
    ],
    'the refused tokens are in the trail, under their agent',
  );
  const unknown = await read(`mv_${'A'.repeat(43)}`);
  t.match(unknown.body.error.message, /send `Authorization: Bearer <token>`/, 'an unknown token still gets the generic text');
});
