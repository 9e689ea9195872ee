// The watcher's logic, apart from the thread and the OS watcher: dirty paths → stat → admit one flight per path,
// hold deletes for a rename window, and release a path when the store writer says it is done.
import { stat } from 'node:fs/promises';
import type { Board } from '../../supervisors/runtime/board.js';
import type { EventLogger } from '../../supervisors/runtime/log.js';
import type { Sends } from '../../supervisors/actors.js';
import type { Clock, TimerHandle } from '../../supervisors/clock.js';
import type { IndexedState, WatcherMsg } from '../../messages/to-watcher.js';
import { assertNever, type VaultPath } from '../../messages/common.js';
import { hashFile, scanVault, statNote, type IgnoreMatcher, type StatResult } from './scan.js';

/** Whether the vault folder itself is there (a folder, not just anything at that name). */
async function rootPresent(root: string): Promise<boolean> {
  try {
    return (await stat(root)).isDirectory();
  } catch {
    return false;
  }
}

export interface WatcherDeps {
  root: string;
  ignore: IgnoreMatcher;
  clock: Clock;
  debounceMs: number;
  renameWindowMs: number;
  maxInFlight: number;
  emit: (msg: Sends<'watcher'>) => void;
  board: Board;
  log: EventLogger;
}

interface HeldDelete {
  hash: string;
  deadline: number;
}

export class WatcherCore {
  readonly #d: WatcherDeps;
  readonly #index = new Map<VaultPath, IndexedState>();
  /** Folders named like notes (`x.md`) that held indexed notes (see heldNotes). */
  readonly #noteFolders = new Set<string>();
  readonly #dirty = new Map<VaultPath, number>(); // path → when it was first seen dirty
  readonly #inFlight = new Map<VaultPath, number>();
  readonly #redo = new Set<VaultPath>();
  readonly #deletes = new Map<VaultPath, HeldDelete>();
  readonly #renameTargets = new Set<VaultPath>(); // re-examined once the rename is stored
  /**
   * Paths the store holds a failure for and no document (their last outcome was `failed`, or the index listed them
   * so at boot): when such a file is gone, a delete clears its row, which no document's delete would otherwise do.
   */
  readonly #failed = new Set<VaultPath>();
  /**
   * The notes on disk as the watcher last saw them: the reconcile's scan, then each path it stats (there, or gone).
   * `filesTotal` on the board (`files_total` in the status) is its size, so it follows notes added and removed while
   * the daemon runs, where it was the reconcile's count until the next start.
   */
  readonly #onDisk = new Set<VaultPath>();
  #timer: TimerHandle | null = null;
  #timerAt = Infinity;
  #flushing: Promise<void> | null = null;
  #again = false;
  #reconciled = false;
  #lastSignalled = -1;

  constructor(deps: WatcherDeps) {
    this.#d = deps;
  }

  /**
   * Boot reconcile: compare disk with what the index holds, stat first, hashing only to pair renames. `reported`: the
   * paths the index holds a file status for (a failure, or an indexed note's warning).
   */
  async reconcile(
    indexed: Map<string, IndexedState>,
    reported: Iterable<string> = [],
  ): Promise<{ files: number; changed: number; missing: number }> {
    const started = this.#d.clock.now();
    if (!(await rootPresent(this.#d.root))) {
      // a vault folder that is gone (removed, unmounted) is not "every note deleted": keep the index as it is and
      // reconcile in full when main sees the folder again (it sends a rescan)
      this.#d.log.warn({ event: 'vault_missing', root: this.#d.root }, 'the vault folder is gone; the index is kept until it is back');
      return { files: 0, changed: 0, missing: 0 };
    }
    this.#index.clear(); // a rescan (after a reindex swap) starts from what the new index holds
    for (const [p, s] of indexed) this.#indexed(p as VaultPath, s);
    this.#failed.clear();
    for (const p of reported) if (!this.#index.has(p as VaultPath)) this.#failed.add(p as VaultPath);
    const { files, problems } = scanVault(this.#d.root, this.#d.ignore);
    const seen = new Set<string>();
    let changed = 0;
    const now = this.#d.clock.now();
    this.#onDisk.clear();
    for (const f of files) {
      seen.add(f.path);
      this.#onDisk.add(f.path);
      const known = this.#index.get(f.path);
      if (!known || known.mtimeMs !== f.mtimeMs || known.size !== f.size) {
        this.#dirty.set(f.path, now);
        changed++;
      }
    }
    for (const p of problems) {
      seen.add(p.path);
      this.#inFlight.set(p.path, now);
      this.#d.emit({ type: 'store.file_failed', path: p.path, reason: p.reason, message: p.message });
    }
    let missing = 0;
    for (const [p, s] of this.#index) {
      if (seen.has(p)) continue;
      this.#deletes.set(p, { hash: s.contentHash, deadline: now }); // due at once; still pairs with a renamed twin
      missing++;
    }
    // a failure the index still lists for a file no longer there (or now ignored): its row goes
    for (const p of this.#failed) if (!seen.has(p)) this.#deleteFailed(p, now);
    this.#reconciled = true;
    this.#d.log.event('vault_reconciled', {
      files: files.length,
      changed,
      missing,
      problems: problems.length,
      ms: this.#d.clock.now() - started,
    });
    this.#publish();
    await this.flush();
    return { files: files.length, changed, missing };
  }

  /** OS events (relative paths, already filtered by the ignore rules): mark dirty and flush after the debounce window. */
  onPaths(paths: Iterable<VaultPath>): void {
    const now = this.#d.clock.now();
    for (const p of paths) if (!this.#dirty.has(p)) this.#dirty.set(p, now);
    this.#publish();
    this.#schedule(now + this.#d.debounceMs);
  }

  /**
   * Whether notes were indexed inside a folder of this name that is named like a note (`x.md/`). When such a folder
   * becomes a file, the OS may report only the new file, so the notes it held must be looked at again.
   */
  heldNotes(rel: string): boolean {
    return this.#noteFolders.has(rel);
  }

  #indexed(p: VaultPath, s: IndexedState): void {
    this.#index.set(p, s);
    // remember folders named like notes on the way to an indexed note (rare, so the set stays small)
    for (let i = p.indexOf('.md/'); i >= 0; i = p.indexOf('.md/', i + 1)) this.#noteFolders.add(p.slice(0, i + 3));
  }

  /**
   * A delete for a path that failed and is gone, due at once (as a held delete: it waits while the vault folder itself
   * is gone, and is dropped if the file comes back). Its hash pairs with no rename: the failed file had no document.
   * Without it, a note written and removed before the chunker read it (an agent's write and its undo can be) kept a
   * "vanished" failure for good.
   */
  #deleteFailed(p: VaultPath, now: number): void {
    if (!this.#deletes.has(p)) this.#deletes.set(p, { hash: '', deadline: now });
  }

  /**
   * A folder appeared, vanished or moved: every known note under it (indexed, or failed), and every note now in it, is
   * dirty.
   */
  async onFolder(rel: string): Promise<void> {
    const prefix = rel.endsWith('/') ? rel : `${rel}/`;
    const dirty: VaultPath[] = [];
    for (const p of this.#index.keys()) if (p.startsWith(prefix)) dirty.push(p);
    for (const p of this.#failed) if (p.startsWith(prefix)) dirty.push(p);
    const { files } = scanVault(`${this.#d.root}/${rel}`, (r, isDir) => this.#d.ignore(`${prefix}${r}`, isDir));
    for (const f of files) dirty.push(`${prefix}${f.path}` as VaultPath);
    if (dirty.length) this.onPaths(dirty);
  }

  handle(msg: WatcherMsg): void {
    switch (msg.type) {
      case 'watcher.done': {
        this.#inFlight.delete(msg.path);
        if (msg.state) this.#indexed(msg.path, msg.state);
        else if (msg.outcome !== 'failed') this.#index.delete(msg.path);
        if (msg.outcome === 'failed' && !this.#index.has(msg.path)) this.#failed.add(msg.path);
        else this.#failed.delete(msg.path);
        this.#d.board.add('filesDone', 1);
        const again = this.#redo.delete(msg.path) || this.#renameTargets.delete(msg.path) || msg.outcome === 'stale';
        if (again) this.#dirty.set(msg.path, this.#d.clock.now());
        this.#publish();
        if (this.#dirty.size > 0 || this.#deletes.size > 0) this.#schedule(this.#d.clock.now());
        return;
      }
      case 'watcher.rescan':
      case 'watcher.fs_events':
        return; // handled by the actor, which owns the I/O

      default:
        assertNever(msg);
    }
  }

  pending(): number {
    return this.#dirty.size + this.#inFlight.size + this.#deletes.size + this.#redo.size;
  }

  /** Examine dirty paths and due deletes; serialised so two flushes never race on one path. */
  async flush(): Promise<void> {
    if (this.#flushing) {
      this.#again = true;
      return this.#flushing;
    }
    this.#flushing = (async () => {
      do {
        this.#again = false;
        await this.#flushOnce();
      } while (this.#again);
    })();
    try {
      await this.#flushing;
    } finally {
      this.#flushing = null;
      this.#publish();
    }
  }

  async #flushOnce(): Promise<void> {
    const d = this.#d;
    // stat the batch first and take disappearances before appearances, so a rename's old path is already
    // held as a delete when its new path is examined (events in one batch come in no promised order)
    const batch: Array<[VaultPath, StatResult]> = [];
    for (const [p] of [...this.#dirty]) {
      if (this.#inFlight.size + batch.length >= d.maxInFlight) break; // admission control: the rest waits for `done`
      this.#dirty.delete(p);
      if (this.#inFlight.has(p)) {
        this.#redo.add(p);
        continue;
      }
      batch.push([p, await statNote(d.root, p)]);
    }
    batch.sort((a, b) => Number(a[1].kind === 'file') - Number(b[1].kind === 'file'));
    for (const [p, st] of batch) await this.#examine(p, st);
    const now = d.clock.now();
    let next = Infinity;
    // deletes wait while the vault folder itself is gone: the rescan on its return decides what was really deleted
    const rootGone = this.#deletes.size > 0 && !(await rootPresent(d.root));
    for (const [p, held] of [...this.#deletes]) {
      if (rootGone) break;
      if (held.deadline > now) {
        next = Math.min(next, held.deadline);
        continue;
      }
      if (this.#inFlight.has(p)) continue;
      this.#deletes.delete(p);
      const st = await statNote(d.root, p);
      if (st.kind === 'file') {
        this.#dirty.set(p, now); // came back (an editor's delete-then-write): an ordinary change
        this.#again = true;
        continue;
      }
      this.#onDisk.delete(p);
      this.#inFlight.set(p, now);
      d.emit({ type: 'store.delete', path: p });
    }
    if (next < Infinity) this.#schedule(next);
  }

  async #examine(p: VaultPath, st: StatResult): Promise<void> {
    const d = this.#d;
    const now = d.clock.now();
    const known = this.#index.get(p);
    if (st.kind === 'file') this.#onDisk.add(p);
    else this.#onDisk.delete(p);
    switch (st.kind) {
      case 'missing':
      case 'other':
        if (known && !this.#deletes.has(p)) {
          this.#deletes.set(p, { hash: known.contentHash, deadline: now + d.renameWindowMs });
          this.#schedule(now + d.renameWindowMs);
        } else if (!known && st.kind === 'missing' && this.#failed.has(p)) this.#deleteFailed(p, now);
        return;
      case 'error':
        this.#inFlight.set(p, now);
        d.emit({ type: 'store.file_failed', path: p, reason: st.reason, message: st.message });
        return;
      case 'file':
        break;
      default:
        assertNever(st);
    }
    this.#deletes.delete(p); // it exists again
    if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return; // unchanged: no work
    if (!known && this.#deletes.size > 0) {
      const hash = await hashFile(d.root, p);
      for (const [from, held] of this.#deletes) {
        if (hash !== null && held.hash === hash && !this.#inFlight.has(from)) {
          this.#deletes.delete(from);
          this.#inFlight.set(p, now);
          this.#inFlight.set(from, now);
          this.#renameTargets.add(p);
          d.emit({ type: 'store.rename', from, to: p, mtimeMs: st.mtimeMs, size: st.size });
          return;
        }
      }
    }
    this.#inFlight.set(p, now);
    d.emit({ type: 'chunker.file_changed', path: p, mtimeMs: st.mtimeMs, size: st.size, indexedHash: known?.contentHash ?? null });
  }

  #schedule(at: number): void {
    if (at >= this.#timerAt) return;
    if (this.#timer !== null) this.#d.clock.clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = this.#d.clock.setTimeout(
      () => {
        this.#timer = null;
        this.#timerAt = Infinity;
        void this.flush();
      },
      Math.max(0, at - this.#d.clock.now()),
    );
  }

  #publish(): void {
    const b = this.#d.board;
    if (this.#reconciled) b.set('filesTotal', this.#onDisk.size);
    b.set('pending', this.pending());
    b.set('inFlight', this.#inFlight.size);
    let oldest = Infinity;
    for (const m of [this.#dirty, this.#inFlight]) for (const t of m.values()) oldest = Math.min(oldest, t);
    for (const h of this.#deletes.values()) oldest = Math.min(oldest, h.deadline - this.#d.renameWindowMs);
    b.set('oldestPendingAt', oldest === Infinity ? 0 : oldest);
    const pending = this.pending();
    // main waits on this (memvault index, tests): signal crossings of zero, not every change
    if (this.#reconciled && (pending === 0) !== (this.#lastSignalled === 0)) {
      this.#lastSignalled = pending;
      this.#d.emit({ type: 'main.watcher_state', pending, reconciled: true });
    }
  }
}
