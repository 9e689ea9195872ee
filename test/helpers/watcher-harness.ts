// A WatcherCore on a real temp vault with a ManualClock, recording what it emits: the watcher's unit tests drive it.
import { mkdtempSync, rmSync, statSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WatcherCore, type WatcherDeps } from '../../actors/watcher/core.js';
import { makeIgnore } from '../../actors/watcher/scan.js';
import { Board } from '../../supervisors/runtime/board.js';
import { makeLogger } from '../../supervisors/runtime/log.js';
import type { Sends } from '../../supervisors/actors.js';
import type { IndexedState } from '../../messages/to-watcher.js';
import { sha256Hex } from '../../messages/hash.js';
import { vaultPath, type VaultPath } from '../../messages/common.js';
import { ManualClock } from './manual-clock.js';

interface Teardown {
  teardown(fn: () => void | Promise<void>): void;
}

export type WatcherOut = Sends<'watcher'>;
export type WatcherOutOf<T extends WatcherOut['type']> = Extract<WatcherOut, { type: T }>;

export interface WatcherHarness {
  root: string;
  clock: ManualClock;
  board: Board;
  core: WatcherCore;
  /** Everything the core emitted, in order. */
  emitted: WatcherOut[];
  /** The emitted messages of one type, in order. */
  of<T extends WatcherOut['type']>(type: T): Array<WatcherOutOf<T>>;
  /** Resolves once `count` messages of `type` have been emitted (at once if they already were). */
  until<T extends WatcherOut['type']>(type: T, count?: number): Promise<Array<WatcherOutOf<T>>>;
  /** Writes a note under the vault (folders made as needed). */
  write(rel: string, text: string): void;
  /** What the store writer would report for the note as it is on disk now (`watcher.done`'s `state`). */
  stateOf(rel: string): IndexedState;
  /** Waits for the flush a timer started (or runs one): after it, everything that flush emits has been emitted. */
  settle(): Promise<void>;
}

/** Builds the core on an empty temp vault (removed at teardown); the clock starts at 0. */
export function watcherHarness(
  t: Teardown,
  over: Partial<Pick<WatcherDeps, 'debounceMs' | 'renameWindowMs' | 'maxInFlight'>> = {},
): WatcherHarness {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-watcher-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const clock = new ManualClock();
  const board = new Board();
  const emitted: WatcherOut[] = [];
  const waiters: Array<() => void> = [];
  const core = new WatcherCore({
    root,
    ignore: makeIgnore(['.git/**', '.obsidian/**']),
    clock,
    debounceMs: over.debounceMs ?? 100,
    renameWindowMs: over.renameWindowMs ?? 1_000,
    maxInFlight: over.maxInFlight ?? 256,
    emit: (m) => {
      emitted.push(m);
      for (const w of waiters.splice(0)) w();
    },
    board,
    log: makeLogger('watcher', { level: 'silent' }),
  });
  const of = <T extends WatcherOut['type']>(type: T): Array<WatcherOutOf<T>> =>
    emitted.filter((m): m is WatcherOutOf<T> => m.type === type);
  return {
    root,
    clock,
    board,
    core,
    emitted,
    of,
    until: (type, count = 1) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (of(type).length >= count) resolve(of(type));
          else waiters.push(check);
        };
        check();
      }),
    write: (rel, text) => {
      const abs = path.join(root, rel);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    },
    stateOf: (rel) => {
      const abs = path.join(root, rel);
      const s = statSync(abs);
      return { mtimeMs: s.mtimeMs, size: s.size, contentHash: sha256Hex(readFileSync(abs)) };
    },
    // flush() joins a flush in progress (the one the timer started); with none in progress it runs one itself
    settle: () => core.flush(),
  };
}

/** `vaultPath` for test literals. */
export const vp = (rel: string): VaultPath => vaultPath(rel);
