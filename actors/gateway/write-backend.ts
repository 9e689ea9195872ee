// The gateway's side of the write path: tool calls become `git.*` requests to the git-writer actor (through main),
// answered with a MutationResult; read-your-writes waits for `gateway.indexed` notices.
import { GIT_STATES, stateName, type Board } from '../../supervisors/runtime/board.js';
import { ActorRequestError } from '../../supervisors/runtime/errors.js';
import { fail } from '../../messages/common.js';
import type { GitMsg } from '../../messages/to-git.js';
import type { Caller, FactInput, MutationResult, RememberResult, UndoRequest, VaultOp } from '../../messages/vault-ops.js';
import { indexedAsWanted, type IndexedWant } from './tools/types.js';

export const WRITE_TIMEOUT_MS = 60_000;

type GitRequest = Extract<GitMsg, { type: 'git.mutate' | 'git.undo' | 'git.forget' }>;

export class MessageWriteBackend {
  #outstanding = 0;

  /**
   * `maxQueue` (writes.max_queue) bounds the requests handed to the git writer and not yet answered: past it a
   * write or undo is refused at once with `busy`, so a flood of writes queues nowhere and no caller waits out the
   * timeout for a place in line.
   */
  constructor(
    /** Asks the git writer (through main); rejects with ActorRequestError when no answer comes. */
    readonly ask: (m: GitRequest) => Promise<MutationResult>,
    /** Asks the git writer to append a fact (memory_remember). */
    readonly askRemember: (m: Extract<GitMsg, { type: 'git.remember' }>) => Promise<RememberResult>,
    readonly board: Board,
    /** writes.enabled: without it no git writer runs, and the write tools are never offered. */
    readonly enabled: boolean,
    readonly mayReadSensitive: boolean,
    readonly maxQueue: number,
  ) {
    if (!Number.isInteger(maxQueue) || maxQueue < 1) throw new TypeError('writes.max_queue must be a positive integer');
  }

  /** Writes and undos handed to the git writer and not yet answered. */
  get outstanding(): number {
    return this.#outstanding;
  }

  available(): { ok: true } | { ok: false; reason: string } {
    if (!this.enabled) return { ok: false, reason: 'disabled: writes are off in the configuration (writes.enabled: false)' };
    const s = stateName(GIT_STATES, this.board.get('gitState'), 'git_failed');
    if (s === 'ready') return { ok: true };
    return {
      ok: false,
      reason: s === 'starting' ? 'starting: the git writer is opening the vault repository' : `${s}: writes are off (see memvault doctor)`,
    };
  }

  async #request<R extends MutationResult | RememberResult>(send: () => Promise<R>): Promise<R | MutationResult> {
    if (this.#outstanding >= this.maxQueue)
      return fail(
        'busy',
        `the write queue is full: ${this.#outstanding} writes are already waiting for the git writer (writes.max_queue ${this.maxQueue}); nothing was changed — retry after a short wait`,
      );
    this.#outstanding++;
    try {
      return await send();
    } catch (err) {
      if (err instanceof ActorRequestError && err.reason === 'timeout')
        return fail(
          'unavailable',
          `the git writer did not answer within ${WRITE_TIMEOUT_MS / 1000} s; the write may still land — read the note before retrying`,
        );
      return fail(
        'unavailable',
        `the git writer could not take the request (${err instanceof Error ? err.message : String(err)}); nothing was changed — retry later`,
      );
    } finally {
      this.#outstanding--;
    }
  }

  mutate(op: VaultOp, caller: Caller & { mayReadSensitive?: boolean }): Promise<MutationResult> {
    const mayReadSensitive = caller.mayReadSensitive ?? this.mayReadSensitive;
    return this.#request(() => this.ask({ type: 'git.mutate', op, caller: { ...caller, mayReadSensitive } }));
  }

  undoLast(req: UndoRequest & { reason?: string }): Promise<MutationResult> {
    return this.#request(() => this.ask({ type: 'git.undo', req }));
  }

  async remember(fact: FactInput, caller: Caller): Promise<RememberResult> {
    return (await this.#request(() => this.askRemember({ type: 'git.remember', fact, caller }))) as RememberResult;
  }

  forget(lines: string[], caller: Caller): Promise<MutationResult> {
    return this.#request(() => this.ask({ type: 'git.forget', lines, caller }));
  }
}

/** Waits until the index holds a given content hash for a path (null: until the path is gone). */
export class IndexWaiter {
  readonly #waiters = new Map<string, Array<{ hash: IndexedWant; done: (ok: boolean) => void }>>();

  constructor(readonly current: (path: string) => string | null) {}

  /** `hash` '*': until the index holds any content there. */
  wait(path: string, hash: IndexedWant, timeoutMs: number): Promise<boolean> {
    if (indexedAsWanted(hash, this.current(path))) return Promise.resolve(true);
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
      if (!indexedAsWanted(e.hash, hash)) return true;
      e.done(true);
      return false;
    });
    if (rest.length) this.#waiters.set(path, rest);
    else this.#waiters.delete(path);
  }
}
