// Main's vault watch subscribes afresh when the vault folder is replaced and when new folders appear. Stopped while
// such a subscription is being made, it must still drop it: a subscription that lands after stop keeps an inotify
// watch and @parcel/watcher's thread alive, and the process never exits. Real @parcel/watcher, real folders.
import { mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import t from 'tap';
import { inotifyFds, vaultWatchRig } from '../helpers/vault-watch-rig.js';

/** How long the process of the second test may take to exit (it takes well under a second). */
const EXIT_BOUND_MS = 30_000;

t.test('stopped while a check subscribes to a replaced vault folder', async (t) => {
  const before = inotifyFds();
  const { root, vault, w, routed, cleanup } = vaultWatchRig();
  t.teardown(cleanup);
  await w.start();
  t.equal(inotifyFds(), before + 1, 'watching: one inotify instance');
  // another folder at the vault path: the check drops the old subscription and makes a new one
  renameSync(vault, path.join(root, 'old-vault'));
  mkdirSync(vault);
  const checking = w.check();
  await w.stop();
  const atStop = routed.length;
  await checking;
  t.equal(inotifyFds(), before, 'no inotify instance left once stopped');
  t.same(routed.slice(atStop), [], 'and nothing routed after stop');
});

t.test('stopped while new folders are being watched afresh, the process still exits', async (t) => {
  // in a process of its own: a subscription left behind keeps a process from ever exiting
  const script = `
    import { mkdirSync } from 'node:fs';
    import path from 'node:path';
    const { inotifyFds, vaultWatchRig } = await import(${JSON.stringify(new URL('../helpers/vault-watch-rig.js', import.meta.url).href)});
    let stopping = null;
    const routedAfter = [];
    let reported;
    const folderReported = new Promise((r) => (reported = r));
    const { vault, w, cleanup } = vaultWatchRig((m, w) => {
      if (stopping) routedAfter.push(m.type);
      // the event naming the new folder: its fresh subscription is under way now; stop at once
      else if (m.type === 'watcher.fs_events' && m.paths.includes('new')) { stopping = w.stop(); reported(); }
    });
    await w.start();
    mkdirSync(path.join(vault, 'new'));
    await folderReported;
    await stopping;
    cleanup();
    process.stdout.write(JSON.stringify({ inotify: inotifyFds(), routedAfter }));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b));
  // the bound is for a failure only: a process left with a subscription never exits, and the test would wait forever
  const exited = await Promise.race([
    once(child, 'exit').then(([code]) => code as number),
    new Promise<'hung'>((r) => setTimeout(() => r('hung'), EXIT_BOUND_MS).unref()),
  ]);
  if (exited === 'hung') child.kill('SIGKILL');
  t.equal(exited, 0, 'the process exits once the watch is stopped');
  t.same(JSON.parse(out || '{}'), { inotify: 0, routedAfter: [] }, 'no inotify instance left, nothing routed after stop');
});
