// What reached the write path: every `git.mutate` / `git.undo` request the router carried from the gateway to the
// (real) git writer, in order — tests check who the gateway said was calling, and that refused calls never got there.
import type { Daemon } from '../../../../main/daemon.js';
import type { VaultOp } from '../../../../messages/vault-ops.js';

export class WriteRequests {
  readonly seen: Array<{ op: VaultOp['op'] | 'undo'; agent: string; reason?: string; onlyMine?: boolean }> = [];
  readonly #off: () => void;

  constructor(readonly daemon: Daemon) {
    this.#off = daemon.onRouted((m) => {
      if (m.type === 'git.mutate')
        this.seen.push({ op: m.op.op, agent: m.caller.agent, ...(m.caller.reason !== undefined ? { reason: m.caller.reason } : {}) });
      else if (m.type === 'git.undo')
        this.seen.push({
          op: 'undo',
          agent: m.req.agent,
          onlyMine: m.req.onlyMine,
          ...(m.req.reason !== undefined ? { reason: m.req.reason } : {}),
        });
    });
  }

  /** Plays the git writer's report on the board (GIT_STATES): 1 ready; 2.. writes off (the gateway stops offering the write tools). */
  setState(s: number): void {
    this.daemon.board.set('gitState', s);
  }

  stop(): void {
    this.#off();
  }
}
