// An agent's write goes from the gateway straight to the git writer over their own port (supervisors/runtime/peers.ts),
// not through main: it is answered while main's event loop is blocked. When the git writer dies with a write it had
// not answered, that write is sent again through main's mailbox to the restarted git writer and lands, once; writes
// after the restart go straight again.
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { git, within } from '../../helpers/daemon.js';
import { startToolDaemon } from './helpers/tool-daemon.js';

/**
 * One vault_write made by another process while this one (main) is blocked in execFileSync: it can only be answered
 * if nothing on its way needs main. Answers the HTTP status and body, or the client's error (10 s timeout).
 */
function writeWhileMainIsBlocked(
  url: string,
  token: string,
  args: { path: string; content: string },
): { status?: number; body?: any; error?: string } {
  const script = `
    const [url, token, body] = process.argv.slice(1);
    try {
      const r = await fetch(url + '/v1/tools/vault_write', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json', 'x-memvault-agent': 'blocked-main' },
        body,
        signal: AbortSignal.timeout(10000),
      });
      console.log(JSON.stringify({ status: r.status, body: await r.json() }));
    } catch (err) {
      console.log(JSON.stringify({ error: String(err) }));
    }`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, url, token, JSON.stringify(args)], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '' },
  });
  return JSON.parse(out);
}

t.test('a write is answered while main is blocked, and one in flight when the git writer crashes lands after its restart', async (t) => {
  // max_queue 1: a second write is refused with `busy` exactly while the first is outstanding (our signal that it is)
  const td = await startToolDaemon({ 'Notes/keep.md': '# Keep\n' }, { extra: '  max_queue: 1\n  human_quiet_ms: 50\n' });
  t.teardown(() => td.stop());
  const { d, v } = td;

  const direct = writeWhileMainIsBlocked(d.url, d.token, { path: 'Inbox/direct.md', content: '# Direct\n\nwhile main was blocked\n' });
  t.equal(direct.status, 200, `answered without main: ${JSON.stringify(direct)}`);
  t.equal(direct.body?.commit, git(v.dir, 'rev-parse', 'HEAD').trim(), 'committed');

  // the git writer blocks for good; a metrics request it never answers shows the block is in place
  const gitHandle = d.daemon.handles.git!;
  gitHandle.fault('hang');
  const hung = await gitHandle.metrics(300).then(
    () => 'answered',
    (e: { reason?: string }) => e.reason,
  );
  t.equal(hung, 'timeout', 'the git writer is blocked');

  const first = d.tool('vault_write', { path: 'Inbox/inflight.md', content: '# In flight\n\nwritten before the crash\n' }, 'ada');
  const second = await d.tool('vault_write', { path: 'Inbox/refused.md', content: 'never\n' }, 'ada');
  t.equal(second.body?.error?.reason, 'busy', 'the first write is outstanding at the hung git writer');

  const restarted = new Promise<void>((resolve) => {
    const off = d.daemon.onSupervisor((e) => {
      if (e.type === 'supervisor.child_restarted' && e.child === 'git') {
        off();
        resolve();
      }
    });
  });
  await gitHandle.crash('test: the git writer dies holding a write');
  await within(restarted, 30_000, 'the git writer restarted');
  const landed = await within(first, 30_000, 'the in-flight write answered');
  t.equal(landed.status, 200, `the in-flight write landed: ${JSON.stringify(landed.body)}`);
  t.equal(git(v.dir, 'log', '--format=%s', '--', 'Inbox/inflight.md').trim().split('\n').length, 1, 'committed once');
  t.match(git(v.dir, 'log', '-1', '--format=%b', '--', 'Inbox/inflight.md'), /Memvault-Agent: ada/);
  t.equal(git(v.dir, 'show', 'HEAD:Inbox/inflight.md'), '# In flight\n\nwritten before the crash\n');

  const after = writeWhileMainIsBlocked(d.url, d.token, { path: 'Inbox/after.md', content: '# After\n\nthe restarted git writer\n' });
  t.equal(after.status, 200, `straight to the restarted git writer: ${JSON.stringify(after)}`);
  t.equal(after.body?.commit, git(v.dir, 'rev-parse', 'HEAD').trim());
  t.same(git(v.dir, 'status', '--porcelain', '--', 'Inbox').trim(), '', 'nothing left uncommitted');
});
