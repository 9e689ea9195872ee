// TEST ADAPTER, not production code: stands in for the git-writer actor so the tool tests can run real writes
// before (and independently of) it. It answers the gateway's `git.mutate` / `git.undo` messages — seen through
// Daemon.onRouted, answered with `gateway.mutation_result` — by applying the op to the vault folder with plain fs
// writes (no git, fake commit ids), so the daemon's real watcher indexes the change. It sets the board's gitState
// to 1 (ready), as the git writer does once its repository is open.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../../config/load.js';
import type { Daemon } from '../../../supervisors/daemon.js';
import type { AnyMsg } from '../../../messages/index.js';
import type { GatewayMsg } from '../../../messages/to-gateway.js';
import type { Caller, MutationResult, VaultOp } from '../../../messages/vault-ops.js';
import { checkVaultPath } from '../../../actors/gateway/tools/read-path.js';

interface Change {
  agent: string;
  path: string;
  before: Buffer | null;
}

export class FsWriteStandIn {
  /** Every request that arrived, in order: tests check who the gateway said was calling. */
  readonly seen: Array<{ op: VaultOp['op'] | 'undo'; agent: string; reason?: string; onlyMine?: boolean }> = [];
  readonly #changes: Change[] = [];
  readonly #off: () => void;

  constructor(
    readonly daemon: Daemon,
    readonly cfg: Config,
  ) {
    this.#off = daemon.onRouted((m) => this.#onMessage(m));
    this.setState(1);
  }

  /** The board's gitState: 1 ready; 2..5 writes off (the gateway stops offering the write tools). */
  setState(s: number): void {
    this.daemon.board.set('gitState', s);
  }

  stop(): void {
    this.#off();
  }

  #reply(requestId: number, result: MutationResult): void {
    const msg: GatewayMsg = { type: 'gateway.mutation_result', requestId, result };
    this.daemon.handles.gateway!.send(msg);
  }

  #onMessage(m: AnyMsg): void {
    if (m.type === 'git.mutate') {
      this.seen.push({ op: m.op.op, agent: m.caller.agent, ...(m.caller.reason !== undefined ? { reason: m.caller.reason } : {}) });
      this.#reply(m.requestId, this.#mutate(m.op, m.caller));
    } else if (m.type === 'git.undo') {
      this.seen.push({ op: 'undo', agent: m.req.agent, onlyMine: m.req.onlyMine, ...(m.req.reason !== undefined ? { reason: m.req.reason } : {}) });
      this.#reply(m.requestId, this.#undo(m.req.agent, m.req.onlyMine));
    }
  }

  #abs(rel: string): string {
    return path.join(this.cfg.vault, ...rel.split('/'));
  }

  #result(op: 'write' | 'undo', rel: string, changed = true): MutationResult {
    const abs = this.#abs(rel);
    const exists = existsSync(abs);
    return {
      ok: true,
      op,
      paths: [rel],
      commit: changed ? randomBytes(20).toString('hex') : null,
      mtimeMs: exists ? statSync(abs).mtimeMs : null,
      contentHash: exists ? createHash('sha256').update(readFileSync(abs)).digest('hex') : null,
    };
  }

  #mutate(op: VaultOp, caller: Caller): MutationResult {
    if (op.op !== 'write') return { ok: false, reason: 'unavailable', message: `the test stand-in only writes (got ${op.op})` };
    const checked = checkVaultPath(op.path, 'note');
    if (!checked.ok) return { ok: false, reason: checked.error.reason as 'path_escape', message: checked.error.message };
    const rel = checked.result.rel;
    const top = rel.split('/')[0]!;
    if (!rel.includes('/') || !this.cfg.writes.allowlist.includes(top))
      return { ok: false, reason: 'outside_allowlist', message: `${rel} is outside the folders agents may write (${this.cfg.writes.allowlist.join(', ')})` };
    const abs = this.#abs(rel);
    const before = existsSync(abs) ? readFileSync(abs) : null;
    if (op.expectedMtime !== undefined && (before === null || statSync(abs).mtimeMs !== op.expectedMtime))
      return { ok: false, reason: 'conflict', message: `${rel} changed since mtime ${op.expectedMtime}; read it again` };
    if (before !== null && before.equals(Buffer.from(op.content))) return this.#result('write', rel, false); // unchanged: no commit
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, op.content);
    this.#changes.push({ agent: caller.agent, path: rel, before });
    return this.#result('write', rel);
  }

  #undo(agent: string, onlyMine: boolean): MutationResult {
    let i = this.#changes.length - 1;
    while (i >= 0 && onlyMine && this.#changes[i]!.agent !== agent) i--;
    if (i < 0) return { ok: false, reason: 'nothing_to_undo', message: onlyMine ? `no change by ${agent} to undo` : 'no change to undo' };
    const [c] = this.#changes.splice(i, 1);
    const abs = this.#abs(c!.path);
    if (c!.before === null) rmSync(abs, { force: true });
    else writeFileSync(abs, c!.before);
    return this.#result('undo', c!.path);
  }
}
