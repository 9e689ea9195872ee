// Main's watch on the files under the daemon: the OS subscription on the vault, and a once-a-second check that the
// vault folder and the index file are still the ones it opened — a folder removed, replaced or remounted gets a
// fresh subscription and a full reconcile; an index file deleted underneath gets a fresh index rebuilt from the vault.
import { closeSync, fstatSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import watcher from '@parcel/watcher';
import type { Board } from '../supervisors/runtime/board.js';
import type { EventLogger } from '../supervisors/runtime/log.js';
import { openIndex } from '../actors/store-writer/schema.js';
import type { AnyMsg } from '../messages/index.js';
import { monotonicMs } from '../supervisors/clock.js';

export interface VaultWatchDeps {
  vault: string;
  dbFile: string;
  ignore: string[];
  board: Board;
  log: EventLogger;
  route: (msg: AnyMsg) => void;
  /** The fact log's files (day logs, tombstones): their changes go to the memory actor. */
  isMemoryFile: (rel: string) => boolean;
  /** Whether people's edits go to the git writer too (writes enabled). */
  git: () => boolean;
  /** True while a reindex swap is replacing the index file on purpose. */
  swapping: () => boolean;
  /** How often to check the vault folder and the index file; default 1000 ms. */
  everyMs?: number;
}

/**
 * inotify on Linux, named: left to choose, @parcel/watcher first asks `sh -c watchman …` whether watchman runs and
 * never reaps that shell, which then sat under the daemon as a defunct `sh` for its whole life.
 */
const BACKEND: { backend?: watcher.BackendType } = process.platform === 'linux' ? { backend: 'inotify' } : {};

/** The inode of `p` when it is a folder (`dir`) or a file, else null (gone, or the wrong kind). */
function inode(p: string, dir: boolean): number | null {
  const s = statSync(p, { throwIfNoEntry: false });
  if (!s || s.isDirectory() !== dir) return null;
  return s.ino;
}

export class VaultWatch {
  readonly #d: VaultWatchDeps;
  #sub: watcher.AsyncSubscription | null = null;
  #timer: NodeJS.Timeout | null = null;
  #checking = false;
  #vaultFd: number | null = null; // held open: its link count drops to 0 when the folder is removed, even if a new one reuses the inode
  #indexIno: number | null = null;
  #missingSince = 0;
  #rewatching = false;
  readonly #newFolders = new Set<string>();
  #stopped = false;
  /** Subscribes and unsubscribes under way (start, a folder gone, back or replaced, new folders): stop waits for them. */
  readonly #native = new Set<Promise<void>>();

  constructor(deps: VaultWatchDeps) {
    this.#d = deps;
  }

  async start(): Promise<void> {
    this.#holdVault();
    this.#indexIno = inode(this.#d.dbFile, false);
    await this.#subscribe();
    if (this.#stopped) return;
    this.#timer = setInterval(() => void this.check(), this.#d.everyMs ?? 1_000);
    this.#timer.unref();
  }

  /**
   * Stops checking and drops the OS subscription, also one that a check or new folders were making meanwhile: one
   * that landed after stop kept its inotify watch and @parcel/watcher's thread, and the process never exited (the
   * likely cause of a CI test process that hung 30 minutes after its daemon stopped: litmus makes folders, and each
   * new folder is watched afresh).
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#vaultFd !== null) closeSync(this.#vaultFd);
    this.#vaultFd = null;
    while (this.#native.size > 0) await Promise.all([...this.#native]);
    await this.#unsubscribe();
  }

  /** A reindex swap replaced the index file: that inode is the one to watch now. */
  indexSwapped(): void {
    this.#indexIno = inode(this.#d.dbFile, false);
  }

  /** One round of checks (the timer calls this; never two at once). */
  async check(): Promise<void> {
    if (this.#checking || this.#timer === null) return;
    this.#checking = true;
    try {
      await this.#checkVault();
      this.#checkIndex();
    } catch (err) {
      this.#d.log.error({ event: 'vault_watch_event', err: String(err) }, 'checking the vault folder and the index file failed');
    } finally {
      this.#checking = false;
    }
  }

  async #checkVault(): Promise<void> {
    const { board, log, vault } = this.#d;
    const ino = inode(vault, true);
    if (ino === null) {
      if (board.get('vaultState') !== 1) {
        // not "every note deleted": searches keep answering from the index, writes are refused until it is back
        board.set('vaultState', 1);
        this.#missingSince = monotonicMs();
        log.warn({ event: 'vault_missing', vault }, 'the vault folder is gone; serving the index as it was, writes refused');
        await this.#unsubscribe();
      }
      return;
    }
    const wasMissing = board.get('vaultState') === 1;
    if (!wasMissing && this.#sameVault(ino)) return;
    // back after being gone, or replaced by another folder between two checks: the old subscription watches
    // nothing (inotify watches the inode), so subscribe again and reconcile the whole vault against the index
    this.#holdVault();
    await this.#unsubscribe();
    await this.#subscribe();
    if (this.#stopped) return;
    board.set('vaultState', 0);
    log.warn(
      {
        event: 'vault_returned',
        vault,
        replaced: !wasMissing,
        missing_ms: wasMissing ? Math.round(monotonicMs() - this.#missingSince) : 0,
      },
      'the vault folder is back; reconciling it in full',
    );
    this.#d.route({ type: 'watcher.rescan', reason: 'vault folder back' });
  }

  /** Whether the folder at the vault path is still the one we hold open (not removed, not another folder). */
  #sameVault(ino: number): boolean {
    if (this.#vaultFd === null) return false;
    const held = fstatSync(this.#vaultFd);
    return held.nlink > 0 && held.ino === ino;
  }

  #holdVault(): void {
    if (this.#vaultFd !== null) closeSync(this.#vaultFd);
    this.#vaultFd = null;
    try {
      this.#vaultFd = openSync(this.#d.vault, 'r');
    } catch {
      // gone again already: the next check sees it missing
    }
  }

  #checkIndex(): void {
    const { dbFile, log } = this.#d;
    if (this.#d.swapping()) return;
    const ino = inode(dbFile, false);
    if (ino !== null && ino === this.#indexIno) return;
    log.warn(
      { event: 'index_file_lost', file: dbFile, replaced: ino !== null },
      'the index file was deleted or replaced under the daemon; rebuilding it from the vault',
    );
    openIndex(dbFile, { readonly: false }).close(); // a fresh file with the schema, before any reader opens it
    this.#indexIno = inode(dbFile, false);
    this.#d.route({ type: 'store.reopen_index', reason: ino === null ? 'deleted' : 'replaced' });
  }

  /**
   * The OS subscription lives on main, not in the watcher actor: a native watcher in a worker that crashes would
   * call back into a dead thread, and events that arrive while the actor restarts must queue, not vanish.
   */
  async #subscribe(): Promise<void> {
    if (this.#stopped) return;
    const { vault, log } = this.#d;
    await this.#tracked(async () => {
      try {
        const sub = await watcher.subscribe(vault, (err, events) => this.#onEvents(err, events), { ignore: this.#d.ignore, ...BACKEND });
        if (this.#stopped)
          await sub.unsubscribe().catch(() => undefined); // landed after stop: dropped at once
        else this.#sub = sub;
      } catch (err) {
        // the folder vanished again between the check and the subscribe: the next check sees it missing
        log.warn({ event: 'vault_watch_event', err: String(err) }, 'could not watch the vault folder; retrying on the next check');
        this.#sub = null;
      }
    });
  }

  async #tracked(op: () => Promise<void>): Promise<void> {
    const p = op();
    this.#native.add(p);
    try {
      await p;
    } finally {
      this.#native.delete(p);
    }
  }

  async #unsubscribe(): Promise<void> {
    const s = this.#sub;
    this.#sub = null;
    // a subscription on a deleted folder may already be dead
    if (s) await this.#tracked(() => s.unsubscribe().catch(() => undefined));
  }

  /**
   * @parcel/watcher (inotify) adds its watch on a new folder only after the folder is reported, so folders made
   * inside it before then (`mkdir -p a/b`, an unzip, a copied tree) are never watched: notes saved there, even
   * much later, were never reported (issue 4: a bulk drop left whole folders unindexed). So a new folder gets a
   * fresh subscription, which walks the tree and watches every folder in it; then a full reconcile covers whatever
   * changed before the fresh watches existed, and the git writer reads git status for what people changed meanwhile.
   * (Subscribing anew before dropping the old one does not work: both share the native inotify watches, and
   * dropping the old one removes them.)
   */
  async #rewatch(folders: string[]): Promise<void> {
    for (const f of folders) this.#newFolders.add(f);
    if (this.#rewatching) return;
    this.#rewatching = true;
    try {
      while (this.#newFolders.size > 0 && this.#sub !== null && this.#timer !== null) {
        const batch = [...this.#newFolders];
        this.#newFolders.clear();
        await this.#unsubscribe();
        if (this.#stopped) return;
        await this.#subscribe();
        if (this.#stopped) return;
        this.#d.log.info(
          { event: 'vault_watch_event', folders: batch.length },
          'new folders: watching the vault afresh and reconciling it',
        );
        this.#d.route({ type: 'watcher.rescan', reason: 'new folders' });
        // the git writer learns of people's edits from events: what the new folders hold, and edits elsewhere whose
        // events came while no subscription was there, it reads from git status (untracked files listed one by one)
        if (this.#d.git()) this.#d.route({ type: 'git.worktree_rescan', reason: 'new folders' });
      }
    } finally {
      this.#rewatching = false;
    }
  }

  #onEvents(err: Error | null, events: watcher.Event[]): void {
    if (this.#stopped) return; // the daemon is stopping: the next start reconciles the vault by stat
    const { vault, log } = this.#d;
    if (err) {
      log.warn({ event: 'vault_watch_event', err: String(err) }, 'OS watcher error; rescanning the vault');
      this.#d.route({ type: 'watcher.rescan', reason: 'os watcher error' });
      return;
    }
    const paths: string[] = [];
    const folders: string[] = [];
    for (const e of events) {
      const rel = path.relative(vault, e.path).split(path.sep).join('/');
      if (rel && !rel.startsWith('..')) paths.push(rel);
      if (
        rel &&
        !rel.startsWith('..') &&
        e.type === 'create' &&
        !rel.toLowerCase().endsWith('.md') &&
        statSync(e.path, { throwIfNoEntry: false })?.isDirectory()
      )
        folders.push(rel);
    }
    if (folders.length) void this.#rewatch(folders);
    const memory = paths.filter((p) => this.#d.isMemoryFile(p));
    if (memory.length) this.#d.route({ type: 'memory.fs_events', paths: memory, from: 'os' });
    if (paths.length) {
      this.#d.route({ type: 'watcher.fs_events', paths });
      if (this.#d.git()) this.#d.route({ type: 'git.worktree_changed', paths }); // people's edits get committed too
    }
  }
}
