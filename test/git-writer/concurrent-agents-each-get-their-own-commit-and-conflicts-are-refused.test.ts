// Eight agents writing at once over MCP: every acknowledged write is on disk and in its own commit; two agents
// racing on one note with the same expected_mtime: one wins, the other gets `conflict`, and no text is lost.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git, daemonOn } from '../helpers/daemon.js';
import { call, mcpClient } from '../gateway/tools/helpers/tool-daemon.js';

t.test('concurrent agents', async (t) => {
  const { v, d } = await daemonOn(t, { 'Projects/shared.md': '# Shared\n\nThe original text.\n' });
  const agents = await Promise.all(Array.from({ length: 8 }, (_, i) => mcpClient(d.url, d.token, `agent-${i}`)));
  t.teardown(() => Promise.all(agents.map((c) => c.close())));
  const commits0 = Number(git(v.dir, 'rev-list', '--count', 'HEAD').trim());

  const perAgent = 5;
  const results = await Promise.all(
    agents.flatMap((c, i) =>
      Array.from({ length: perAgent }, (_, j) =>
        call(c, 'vault_write', { path: `Inbox/agent-${i}-note-${j}.md`, content: `# Note ${j}\n\nWritten by agent ${i}, note ${j}.\n` }),
      ),
    ),
  );
  t.ok(
    results.every((r) => !r.isError),
    'every write acknowledged',
  );
  const shas = new Set(results.map((r) => r.body.commit));
  t.equal(shas.size, 8 * perAgent, 'one distinct commit per write');
  t.equal(Number(git(v.dir, 'rev-list', '--count', 'HEAD').trim()), commits0 + 8 * perAgent, 'and no other commit');
  for (let i = 0; i < 8; i++)
    for (let j = 0; j < perAgent; j++)
      t.equal(
        readFileSync(path.join(v.dir, `Inbox/agent-${i}-note-${j}.md`), 'utf8'),
        `# Note ${j}\n\nWritten by agent ${i}, note ${j}.\n`,
      );
  const authors = git(v.dir, 'log', `-${8 * perAgent}`, '--format=%(trailers:key=Memvault-Agent,valueonly)')
    .split('\n')
    .filter(Boolean);
  t.equal(new Set(authors).size, 8, 'each commit names its agent');

  // two agents race on one note with the mtime they both read
  const mtime = statSync(path.join(v.dir, 'Projects/shared.md')).mtimeMs;
  const [a, b] = await Promise.all([
    call(agents[0]!, 'vault_write', { path: 'Projects/shared.md', content: '# Shared\n\nAgent zero was here.\n', expected_mtime: mtime }),
    call(agents[1]!, 'vault_write', { path: 'Projects/shared.md', content: '# Shared\n\nAgent one was here.\n', expected_mtime: mtime }),
  ]);
  const outcomes = [a!, b!].map((r) => (r.isError ? r.body.error.reason : 'ok')).sort();
  t.same(outcomes, ['conflict', 'ok'], 'one wins, the other is told to re-read');
  const winner = a!.isError ? 'one' : 'zero';
  t.match(readFileSync(path.join(v.dir, 'Projects/shared.md'), 'utf8'), new RegExp(`Agent ${winner} was here`));
  t.match(git(v.dir, 'log', '--all', '-p', '--', 'Projects/shared.md'), /The original text/, 'the original text is still in history');
  git(v.dir, 'fsck', '--strict');
  t.pass('git fsck --strict is clean');
});
