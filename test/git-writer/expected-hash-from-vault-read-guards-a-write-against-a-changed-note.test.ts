// vault_write's expected_hash (the content_hash vault_read returned) refuses the write with `conflict` once the note
// has changed, writing nothing and committing nothing; the current hash lets the write through.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { daemonOn, git } from '../helpers/daemon.js';
import { call, mcpClient } from '../gateway/tools/helpers/tool-daemon.js';

t.test('a write guarded by expected_hash lands only while the note is as it was read', async (t) => {
  const { v, d } = await daemonOn(t, { 'Projects/plan.md': '# Plan\n\nShip in December.\n' });
  const client = await mcpClient(d.url, d.token, 'planner');
  t.teardown(() => client.close());

  const read = await call(client, 'vault_read', { path: 'Projects/plan.md' });
  const hash: string = read.body.content_hash;
  t.match(hash, /^[0-9a-f]{64}$/);

  const ok = await call(client, 'vault_write', {
    path: 'Projects/plan.md',
    content: '# Plan\n\nShip in January.\n',
    expected_hash: hash.toUpperCase(),
  });
  t.equal(ok.isError, false, ok.text);
  t.match(ok.body, { op: 'write', commit: /^[0-9a-f]{40}$/ });

  const head = git(v.dir, 'rev-parse', 'HEAD').trim();
  const stale = await call(client, 'vault_write', { path: 'Projects/plan.md', content: '# Plan\n\nShip in March.\n', expected_hash: hash });
  t.match(
    stale,
    { isError: true, body: { error: { reason: 'conflict', message: /changed since you read it/ } } },
    'the hash read before the last write is stale',
  );
  t.equal(readFileSync(path.join(v.dir, 'Projects/plan.md'), 'utf8'), '# Plan\n\nShip in January.\n', 'nothing was written');
  t.equal(git(v.dir, 'rev-parse', 'HEAD').trim(), head, 'no commit');

  const bad = await call(client, 'vault_write', { path: 'Projects/plan.md', content: 'x', expected_hash: 'abc' });
  t.match(bad, {
    isError: true,
    body: { error: { reason: 'bad_request', message: /expected_hash must be the 64 hex digits of a sha256/ } },
  });

  const created = await call(client, 'vault_write', { path: 'Projects/new.md', content: '# New\n', expected_hash: ok.body.content_hash });
  t.match(
    created,
    { isError: true, body: { error: { reason: 'conflict', message: /does not exist/ } } },
    'a hash for a note that is not there is a conflict too',
  );
});
