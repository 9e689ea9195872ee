// The audit trail: every tool call and every refusal (who, what, target path or query hash, outcome, ms) appended to
// `<data dir>/audit/YYYY-MM-DD.jsonl` (UTC day), kept under `audit.max_mb` by dropping the oldest day files first.
// Appended in order, one at a time, without an fsync each (a crash may cost the last lines, never reorder them).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AuditEntry, AuditEvent } from './audit-entry.js';
import { DayFileWriter, dayFiles } from '../day-files.js';

export const auditDir = (dataDir: string): string => path.join(dataDir, 'audit');

export class AuditLog {
  readonly #writer: DayFileWriter;
  readonly #wallNow: () => number;
  #chain: Promise<unknown> = Promise.resolve();
  /** Told of a failed append (the caller logs it and counts it); the call it records is not failed for it. */
  onError: (err: unknown) => void = () => {};

  constructor(dataDir: string, maxMb: number, wallNow: () => number = Date.now) {
    this.#writer = new DayFileWriter(auditDir(dataDir), maxMb);
    this.#wallNow = wallNow;
  }

  /** Queues one entry, stamped now; resolves once it is on disk. */
  record(e: AuditEvent): Promise<void> {
    const entry: AuditEntry = { t: new Date(this.#wallNow()).toISOString(), ...e };
    const next = this.#chain.then(() => this.#append(entry));
    this.#chain = next.catch((err: unknown) => this.onError(err));
    return next;
  }

  /** Resolves once every entry queued so far is written. */
  flushed(): Promise<void> {
    return this.#chain.then(() => undefined);
  }

  async #append(e: AuditEntry): Promise<void> {
    await this.#writer.append(e.t.slice(0, 10), `${JSON.stringify(e)}\n`);
  }
}

export interface AuditQuery {
  agent?: string;
  /** Epoch ms: entries at or after it. */
  since?: number;
}

/** The entries that match, oldest first (unreadable lines are skipped: the trail is append-only text). */
export async function readAudit(dataDir: string, q: AuditQuery): Promise<AuditEntry[]> {
  const dir = auditDir(dataDir);
  const sinceDay = q.since !== undefined ? new Date(q.since).toISOString().slice(0, 10) : '';
  const out: AuditEntry[] = [];
  for (const f of await dayFiles(dir)) {
    if (f.slice(0, 10) < sinceDay) continue;
    const text = await readFile(path.join(dir, f), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line) continue;
      let e: AuditEntry;
      try {
        e = JSON.parse(line) as AuditEntry;
      } catch {
        continue;
      }
      // agent names are one name in any letter case (store.ts): `--agent ALICE` finds alice's calls
      if (q.agent !== undefined && e.agent?.toLowerCase() !== q.agent.toLowerCase()) continue;
      if (q.since !== undefined && Date.parse(e.t) < q.since) continue;
      out.push(e);
    }
  }
  return out;
}
