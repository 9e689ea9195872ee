// The crash runner's ledger: every op the load made and what came of it (acked, refused, unknown), kept in the
// runner so it survives the daemon's kill -9 — the record the invariants check the vault and git against.
import { createHash } from 'node:crypto';

export const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

const SUM = /\n<!-- sum:([0-9a-f]{64}) -->\n$/;

/** A note whose last line carries the sha256 of everything before it, so a torn note is detectable. */
export function withSum(body: string): string {
  const text = body.endsWith('\n') ? body : `${body}\n`;
  return `${text}<!-- sum:${sha256(text)} -->\n`;
}

/** Whether `bytes` is a whole note made by withSum (false for a torn one, or one without a checksum line). */
export function sumOk(bytes: Buffer): boolean {
  const s = bytes.toString('utf8');
  const m = SUM.exec(s);
  return m !== null && sha256(s.slice(0, m.index + 1)) === m[1];
}

export type Outcome =
  | { kind: 'acked'; commit: string | null; contentHash: string | null; paths: string[] }
  | { kind: 'refused'; reason: string; message: string }
  /** The daemon died before answering (or answered `unavailable`: written, maybe not committed). */
  | { kind: 'unknown'; why: string };

export interface AgentOp {
  seq: number;
  cycle: number;
  agent: string;
  tool: 'vault_write' | 'vault_undo_last';
  /** vault_write: the note and the hash of the content sent. */
  path?: string;
  sentHash?: string;
  startedMs: number;
  endedMs?: number;
  outcome?: Outcome;
}

export type PersonKind = 'create' | 'overwrite' | 'atomic_save' | 'delete' | 'rename';
export interface PersonOp {
  seq: number;
  cycle: number;
  kind: PersonKind;
  path: string;
  /** rename: the new path. */
  to?: string;
  /** What the path (or `to`) holds after the op; null when it is gone. */
  contentHash: string | null;
}

export interface BulkFile {
  cycle: number;
  path: string;
  source: string;
}

/** A null in a possibility set means "absent". */
export type Possible = Set<string | null>;

export class Ledger {
  readonly agentOps: AgentOp[] = [];
  readonly personOps: PersonOp[] = [];
  readonly bulk: BulkFile[] = [];
  #seq = 0;

  begin(op: Omit<AgentOp, 'seq' | 'startedMs'>): AgentOp {
    const full: AgentOp = { ...op, seq: ++this.#seq, startedMs: performance.now() };
    this.agentOps.push(full);
    return full;
  }

  end(op: AgentOp, outcome: Outcome): void {
    op.outcome = outcome;
    op.endedMs = performance.now();
  }

  person(op: Omit<PersonOp, 'seq'>): void {
    this.personOps.push({ ...op, seq: ++this.#seq });
  }

  cycleAgentOps(cycle: number): AgentOp[] {
    return this.agentOps.filter((o) => o.cycle === cycle);
  }

  count(kind: Outcome['kind'], cycle?: number): number {
    return this.agentOps.filter((o) => (cycle === undefined || o.cycle === cycle) && o.outcome?.kind === kind).length;
  }
}
