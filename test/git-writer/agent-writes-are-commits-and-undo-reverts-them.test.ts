// The real write path end to end: MCP tool calls → git-writer actor → atomic file + one commit each, undo by
// `git revert`, people's edits committed as theirs, hostile input refused with nothing written and no commit.
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git, daemonOn } from '../helpers/daemon.js';
import { call, EVERY_TOOL, mcpClient } from '../gateway/tools/helpers/tool-daemon.js';

t.test('agent writes are single commits, undo reverts them, people are committed as themselves', async (t) => {
  const { v, d } = await daemonOn(
    t,
    { 'Projects/plan.md': '---\ntitle: Plan\ntags: [q4]\n---\n# Plan\n\nShip the beta in December.\n' },
    'writes:\n  human_quiet_ms: 50\n',
  );
  const client = await mcpClient(d.url, d.token, 'planner-bot');
  t.teardown(() => client.close());

  const tools = (await client.listTools()).tools.map((x) => x.name).sort();
  t.same(tools, EVERY_TOOL);
  const commits0 = Number(git(v.dir, 'rev-list', '--count', 'HEAD').trim());

  // a new note: one commit by memvault, with who and why
  const w = await call(client, 'vault_write', {
    path: 'Inbox/idea.md',
    content: '# Idea\n\nA heated bike shed.\n',
    reason: 'capture idea',
    wait_indexed: true,
  });
  t.notOk(w.isError, w.text);
  t.equal(w.body.indexed, true, 'read-your-writes: indexed when acknowledged');
  t.match(w.body.commit, /^[0-9a-f]{40}$/);
  t.equal(git(v.dir, 'log', '-1', '--format=%an <%ae>').trim(), 'memvault <memvault@localhost>');
  const msg = git(v.dir, 'log', '-1', '--format=%B');
  t.match(msg, /Memvault-Op: write/);
  t.match(msg, /Memvault-Agent: planner-bot/);
  t.match(msg, /Memvault-Reason: capture idea/);
  t.same(git(v.dir, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n'), ['Inbox/idea.md'], 'exactly the note');
  t.equal((await call(client, 'memory_search', { query: 'heated bike shed', mode: 'bm25' })).body.results[0]?.path, 'Inbox/idea.md');

  // an edit that omits frontmatter keeps the existing keys
  const e = await call(client, 'vault_write', { path: 'Projects/plan.md', content: '# Plan\n\nShip the beta in January.\n' });
  t.notOk(e.isError, e.text);
  t.match(readFileSync(path.join(v.dir, 'Projects/plan.md'), 'utf8'), /title: Plan[\s\S]*January/);

  // a stale expected_mtime is a conflict: nothing written, no commit
  const headBefore = git(v.dir, 'rev-parse', 'HEAD').trim();
  const c = await call(client, 'vault_write', { path: 'Projects/plan.md', content: 'x', expected_mtime: 1 });
  t.ok(c.isError);
  t.equal(c.body.error.reason, 'conflict');
  t.equal(git(v.dir, 'rev-parse', 'HEAD').trim(), headBefore, 'no commit');

  // undo reverts the last write with a new commit; history keeps both
  const u = await call(client, 'vault_undo_last', { wait_indexed: true });
  t.notOk(u.isError, u.text);
  t.match(readFileSync(path.join(v.dir, 'Projects/plan.md'), 'utf8'), /December/, 'the edit is undone');
  t.match(git(v.dir, 'log', '-1', '--format=%B'), /Memvault-Op: undo[\s\S]*Memvault-Reverts: [0-9a-f]{40}/);
  t.equal(Number(git(v.dir, 'rev-list', '--count', 'HEAD').trim()), commits0 + 3, 'write, edit, undo: three commits, none removed');
  const u2 = await call(client, 'vault_undo_last', { wait_indexed: true });
  t.notOk(u2.isError, u2.text);
  t.notOk(existsSync(path.join(v.dir, 'Inbox/idea.md')), 'a second undo removes the new note');
  t.equal(
    (await call(client, 'memory_search', { query: 'heated bike shed', mode: 'bm25' })).body.results.length,
    0,
    'and the index follows',
  );

  // a person edits a note in their editor: it is committed as them after the quiet period
  const personCommitted = new Promise<void>((resolve) => {
    const off = d.daemon.onRouted((m) => {
      if (m.type === 'main.committed' && m.kind === 'human' && m.paths.includes('Projects/plan.md')) {
        off();
        resolve();
      }
    });
  });
  v.write('Projects/plan.md', '# Plan\n\nPerson rewrote this by hand.\n');
  await personCommitted;
  t.equal(git(v.dir, 'log', '-1', '--format=%an').trim(), 'vault owner', 'committed as the person');
  t.equal(git(v.dir, 'status', '--porcelain').trim(), '', 'nothing left uncommitted');

  // hostile paths: each refused with its reason, nothing written, no commit
  const head = git(v.dir, 'rev-parse', 'HEAD').trim();
  const cases: Array<[string, string]> = [
    ['../escape.md', 'path_escape'],
    ['Inbox/..%2f..%2fetc.md', 'path_escape'],
    ['/etc/passwd.md', 'path_escape'],
    ['C:\\\\x.md', 'path_escape'],
    ['Inbox/x.txt', 'not_markdown'],
    ['Secrets/x.md', 'outside_allowlist'],
    ['.git/config.md', 'path_escape'],
  ];
  for (const [p, reason] of cases) {
    const r = await call(client, 'vault_write', { path: p, content: 'nope' });
    t.equal(r.body?.error?.reason, reason, `${p} → ${reason}`);
  }
  const big = await call(client, 'vault_write', { path: 'Inbox/big.md', content: 'x'.repeat(300_000) });
  t.equal(big.body?.error?.reason, 'too_large');
  t.equal(git(v.dir, 'rev-parse', 'HEAD').trim(), head, 'no commit from any refusal');
  t.same(readdirSync(path.dirname(v.dir)).sort(), ['data', 'memvault.yaml', 'vault'], 'nothing written beside the vault');
  git(v.dir, 'fsck', '--strict');
  t.pass('git fsck --strict is clean');
});
