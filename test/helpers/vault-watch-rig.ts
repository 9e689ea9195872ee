// Main's vault watch on a temp vault with a real index file, real @parcel/watcher; what it routes is recorded.
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openIndex } from '../../actors/store-writer/schema.js';
import { VaultWatch } from '../../main/vault-watch.js';
import type { AnyMsg } from '../../messages/index.js';
import { Board } from '../../supervisors/runtime/board.js';
import { makeLogger } from '../../supervisors/runtime/log.js';

/** inotify instances this process holds open. */
export function inotifyFds(): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).includes('inotify');
    } catch {
      return false; // the fd of the listing itself, closed by now
    }
  }).length;
}

export interface VaultWatchRig {
  root: string;
  vault: string;
  w: VaultWatch;
  routed: AnyMsg[];
  cleanup: () => void;
}

/** `onRoute` sees each message as it is routed; the test calls check() itself (the timer is an hour). */
export function vaultWatchRig(onRoute: (m: AnyMsg, w: VaultWatch) => void = () => {}): VaultWatchRig {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-vault-watch-'));
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
    everyMs: 3_600_000,
  });
  return { root, vault, w, routed, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
