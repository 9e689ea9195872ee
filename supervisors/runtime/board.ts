// The status board: a few counters in shared memory that every thread reads without a message round trip.
// main owns the buffer (it outlives actor restarts); actors write the slots they own.

const SLOTS = [
  'pending', // files known to differ from the index and not yet done (watcher)
  'inFlight', // files admitted to the pipeline, not yet stored (watcher)
  'filesTotal', // notes on disk: the reconcile's count, then followed as notes are added and removed (watcher)
  'filesDone', // files finished since boot, any outcome (watcher)
  'chunksIndexed', // chunks written since boot (store-writer)
  'lastIndexedAt', // ms epoch of the last store commit (store-writer)
  'oldestPendingAt', // monotonicMs() (supervisors/clock.ts) of the oldest pending file, 0 when none (watcher)
  'reconciledAt', // ms epoch when the boot reconcile finished, 0 before (watcher)
  'embedderState', // 0 starting, 1 ready, 2 unavailable (embedder)
  'embedCalls', // model calls since boot (embedder)
  'watcherReady', // 1 once the watcher subscribed (watcher)
  'gatewayPort', // the port the gateway listens on, 0 before (gateway)
  'gitState', // GIT_STATES: starting, ready, or why writes are off: git missing, too old, failed (git-writer)
  'storeWrites', // transactions committed since boot; readers recount when it moves (store-writer)
  'indexGeneration', // bumped when reindex swaps in a new index file: readers reopen (store-writer)
  'ftsMerges', // full-text tables merged into one segment since boot (store-writer: fts-merge.ts)
  'storeState', // 0 ok, then why index writes wait: 1 disk_full, 2 read_only, 3 io_error (store-writer)
  'vaultState', // 0 present, 1 missing (the vault folder is gone: the index is kept, writes refused) (main)
  'llmState', // LLM_STATES: checking, ready, or why LLM-driven jobs idle (scheduler)
  'memoryPending', // episode and fact work not yet in the index (memory)
  'memoryOldestPendingAt', // monotonicMs() when the oldest of it was queued, 0 when none (memory)
  'memoryReplaying', // 1 while the memory actor replays the journal into the index (memory)
  'episodesFailed', // episode or fact documents stored without vectors or not at all, since boot (memory)
  'vaultWrites', // transactions that changed a vault note's row (upsert, delete, rename) since boot: the link graph's signal (store-writer)
] as const;
export type BoardSlot = (typeof SLOTS)[number];

/** Float64 slots over a SharedArrayBuffer; writes are plain stores (each slot has one writer). */
export class Board {
  readonly #view: Float64Array;
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(SLOTS.length * 8)) {
    this.#view = new Float64Array(buffer);
  }
  get(slot: BoardSlot): number {
    return this.#view[SLOTS.indexOf(slot)] ?? 0;
  }
  set(slot: BoardSlot, value: number): void {
    this.#view[SLOTS.indexOf(slot)] = value;
  }
  add(slot: BoardSlot, delta: number): void {
    this.set(slot, this.get(slot) + delta);
  }
  snapshot(): Record<BoardSlot, number> {
    return Object.fromEntries(SLOTS.map((s) => [s, this.get(s)])) as Record<BoardSlot, number>;
  }
}

// What a state slot's number means: its index in the slot's list (`stateCode` / `stateName`).
export const EMBEDDER_STATES = ['starting', 'ready', 'unavailable'] as const;
export const GIT_STATES = ['starting', 'ready', 'git_missing', 'git_too_old', 'git_failed'] as const;
export const STORE_STATES = ['ok', 'disk_full', 'read_only', 'io_error'] as const;
/** The LLM endpoint as the scheduler last found it: `ready`, `checking`, or an LlmFailReason it idles on. */
export const LLM_STATES = [
  'checking',
  'ready',
  'not_configured',
  'unreachable',
  'timeout',
  'unauthorized',
  'rate_limited',
  'server_error',
  'http_error',
  'bad_answer',
] as const;

/** The number a state slot holds for `name`. */
export function stateCode<S extends readonly string[]>(states: S, name: S[number]): number {
  return states.indexOf(name);
}

/** The name of the state a slot holds (`fallback` for a number the list does not know). */
export function stateName<S extends readonly string[]>(states: S, code: number, fallback: S[number]): S[number] {
  return states[code] ?? fallback;
}
