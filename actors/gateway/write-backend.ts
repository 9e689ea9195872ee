// The gateway's side of the write path: tool calls become `git.*` requests to the git-writer actor (through main),
// answered by `gateway.mutation_result`; read-your-writes waits for `gateway.indexed` notices.
import type { Board } from '../common/board.js';
import { GIT_STATES } from '../common/board.js';
import { fail } from '../../messages/common.js';
import type { GitMsg } from '../../messages/to-git.js';
import type { Caller, MutationResult, UndoRequest, VaultOp } from '../../messages/vault-ops.js';

const WRITE_TIMEOUT_MS = 60_000;

export class MessageWriteBackend {
  #next = 1;
  readonly #pending = new Map<number, (r: MutationResult) => void>();

  /**
   * `maxQueue` (writes.max_queue) bounds the requests handed to the git writer and not yet answered: past it a
   * write or undo is refused at once with `busy`, so a flood of writes queues nowhere and no caller waits out the
   * timeout for a place in line.
   */
  constructor(
    readonly post: (m: GitMsg) => void,
    readonly board: Board,
    readonly mayReadSensitive: boolean,
    readonly maxQueue: number,
  ) {
    if (!Number.isInteger(maxQueue) || maxQueue < 1) throw new TypeError('writes.max_queue must be a positive integer');
  }

  /** Writes and undos handed to the git writer and not yet answered. */
  get outstanding(): number {
    return this.#pending.size;
  }

  available(): { ok: true } | { ok: false; reason: string } {
    const s = this.board.get('gitState');
    if (s === 1) return { ok: true };
    const name = GIT_STATES[s] ?? 'git_failed';
    return { ok: false, reason: s === 0 ? 'starting: the git writer is opening the vault repository' : `${name}: writes are off (see memvault doctor)` };
  }

  #request(build: (requestId: number) => GitMsg): Promise<MutationResult> {
    if (this.#pending.size >= this.maxQueue)
      return Promise.resolve(
        fail('busy', `the write queue is full: ${this.#pending.size} writes are already waiting for the git writer (writes.max_queue ${this.maxQueue}); nothing was changed — retry after a short wait`),
      );
    const requestId = this.#next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(requestId);
        resolve({ ok: false, reason: 'unavailable', message: `the git writer did not answer within ${WRITE_TIMEOUT_MS / 1000} s; the write may still land — read the note before retrying` });
      }, WRITE_TIMEOUT_MS);
      this.#pending.set(requestId, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.post(build(requestId));
    });
  }

  mutate(op: VaultOp, caller: Caller): Promise<MutationResult> {
    return this.#request((requestId) => ({ type: 'git.mutate', requestId, op, caller: { ...caller, mayReadSensitive: this.mayReadSensitive } }));
  }

  undoLast(req: UndoRequest & { reason?: string }): Promise<MutationResult> {
    return this.#request((requestId) => ({ type: 'git.undo', requestId, req }));
  }

  onResult(requestId: number, result: MutationResult): void {
    const f = this.#pending.get(requestId);
    this.#pending.delete(requestId);
    f?.(result);
  }
}

/** Waits until the index holds a given content hash for a path (null: until the path is gone). */
export class IndexWaiter {
  readonly #waiters = new Map<string, Array<{ hash: string | null; done: (ok: boolean) => void }>>();

  constructor(readonly current: (path: string) => string | null) {}

  wait(path: string, hash: string | null, timeoutMs: number): Promise<boolean> {
    if (this.current(path) === hash) return Promise.resolve(true);
    return new Promise((resolve) => {
      const entry = {
        hash,
        done: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => {
        const list = this.#waiters.get(path)?.filter((e) => e !== entry) ?? [];
        if (list.length) this.#waiters.set(path, list);
        else this.#waiters.delete(path);
        resolve(false);
      }, timeoutMs);
      const list = this.#waiters.get(path) ?? [];
      list.push(entry);
      this.#waiters.set(path, list);
    });
  }

  onIndexed(path: string, hash: string | null): void {
    const list = this.#waiters.get(path);
    if (!list) return;
    const rest = list.filter((e) => {
      if (e.hash !== hash) return true;
      e.done(true);
      return false;
    });
    if (rest.length) this.#waiters.set(path, rest);
    else this.#waiters.delete(path);
  }
}
