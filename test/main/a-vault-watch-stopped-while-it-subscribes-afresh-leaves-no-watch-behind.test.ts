// Main's vault watch subscribes afresh when the vault folder is replaced and when new folders appear. Stopped while
// such a subscription is being made, it must still drop it: a subscription that lands after stop keeps an inotify
// watch and @parcel/watcher's thread alive, and the process never exits. Real @parcel/watcher, real folders.
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import t from 'tap';
import { openIndex } from '../../actors/store-writer/schema.js';
import { VaultWatch } from '../../main/vault-watch.js';
import type { AnyMsg } from '../../messages/index.js';
import { Board } from '../../supervisors/runtime/board.js';
import { makeLogger } from '../../supervisors/runtime/log.js';

/** How long the process of the second test may take to exit (it takes well under a second). */
const EXIT_BOUND_MS = 30_000;

/** inotify instances this process holds open. */
function inotifyFds(): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).includes('inotify');
    } catch {
      return false; // the fd of the listing itself, closed by now
    }
  }).length;
}

function setup(t: { teardown(fn: () => void): void }, onRoute: (m: AnyMsg, w: VaultWatch) => void = () => {}) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-vault-watch-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const vault = path.join(root, 'vault');
  mkdirSync(vault);
  const dbFile = path.join(root, 'index.sqlite');
  openIndex(dbFile, { readonly: false }).close();
  const routed: AnyMsg[] = [];
  const w: VaultWatch = new VaultWatch({
    vault,
    dbFile,
    ignore: [],
    board: new Board(),
    log: makeLogger('main', { level: 'silent' }),
    route: (m) => {
      routed.push(m);
      onRoute(m, w);
    },
    isMemoryFile: () => false,
    git: () => false,
    swapping: () => false,
    everyMs: 3_600_000, // the test calls check() itself
  });
  return { root, vault, w, routed };
}

t.test('stopped while a check subscribes to a replaced vault folder', async (t) => {
  const before = inotifyFds();
  const { root, vault, w, routed } = setup(t);
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
    import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
    import os from 'node:os';
    import path from 'node:path';
    const { VaultWatch } = await import(${JSON.stringify(new URL('../../main/vault-watch.js', import.meta.url).href)});
    const { openIndex } = await import(${JSON.stringify(new URL('../../actors/store-writer/schema.js', import.meta.url).href)});
    const { Board } = await import(${JSON.stringify(new URL('../../supervisors/runtime/board.js', import.meta.url).href)});
    const { makeLogger } = await import(${JSON.stringify(new URL('../../supervisors/runtime/log.js', import.meta.url).href)});
    const inotify = () => readdirSync('/proc/self/fd').filter((fd) => { try { return readlinkSync('/proc/self/fd/' + fd).includes('inotify'); } catch { return false; } }).length;
    const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-vault-watch-'));
    const vault = path.join(root, 'vault');
    mkdirSync(vault);
    const dbFile = path.join(root, 'index.sqlite');
    openIndex(dbFile, { readonly: false }).close();
    let stopping = null;
    const routedAfter = [];
    let reported;
    const folderReported = new Promise((r) => (reported = r));
    const w = new VaultWatch({
      vault, dbFile, ignore: [], board: new Board(), log: makeLogger('main', { level: 'silent' }),
      route: (m) => {
        if (stopping) routedAfter.push(m.type);
        // the event naming the new folder: its fresh subscription is under way now; stop at once
        else if (m.type === 'watcher.fs_events' && m.paths.includes('new')) { stopping = w.stop(); reported(); }
      },
      isMemoryFile: () => false, git: () => false, swapping: () => false, everyMs: 3_600_000,
    });
    await w.start();
    mkdirSync(path.join(vault, 'new'));
    await folderReported;
    await stopping;
    rmSync(root, { recursive: true, force: true });
    process.stdout.write(JSON.stringify({ inotify: inotify(), routedAfter }));
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
