// The audit trail: every tool call and every refusal (who, what, target path or query hash, outcome, ms) appended to
// `<data dir>/audit/YYYY-MM-DD.jsonl` (UTC day), kept under `audit.max_mb` by dropping the oldest day files first.
// Appended in order, one at a time, without an fsync each (a crash may cost the last lines, never reorder them).
import { appendFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AuditEntry, AuditEvent } from './audit-entry.js';
import { trimDayFiles } from '../day-files.js';

const FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;

export const auditDir = (dataDir: string): string => path.join(dataDir, 'audit');

export class AuditLog {
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #wallNow: () => number;
  #bytes: number | null = null;
  #chain: Promise<unknown> = Promise.resolve();
  /** Told of a failed append (the caller logs it and counts it); the call it records is not failed for it. */
  onError: (err: unknown) => void = () => {};

  constructor(dataDir: string, maxMb: number, wallNow: () => number = Date.now) {
    this.#dir = auditDir(dataDir);
    this.#maxBytes = Math.round(maxMb * 1024 * 1024);
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
    const line = `${JSON.stringify(e)}\n`;
    if (this.#bytes === null) {
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      this.#bytes = await this.#size();
    }
    await appendFile(path.join(this.#dir, `${e.t.slice(0, 10)}.jsonl`), line, { mode: 0o600 });
    this.#bytes += Buffer.byteLength(line);
    if (this.#bytes > this.#maxBytes) this.#bytes = await this.#trim();
  }

  async #size(): Promise<number> {
    let n = 0;
    for (const f of await auditFiles(this.#dir)) n += (await stat(path.join(this.#dir, f)).catch(() => ({ size: 0 }))).size;
    return n;
  }

  /** Drops the oldest day files until the trail fits; today's alone over the cap keeps its newer half. */
  async #trim(): Promise<number> {
    return trimDayFiles(this.#dir, await auditFiles(this.#dir), this.#maxBytes);
  }
}

/** The day files, oldest first. */
export async function auditFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => FILE.test(f)).sort();
  } catch {
    return [];
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
  for (const f of await auditFiles(dir)) {
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
      if (q.agent !== undefined && e.agent !== q.agent) continue;
      if (q.since !== undefined && Date.parse(e.t) < q.since) continue;
      out.push(e);
    }
  }
  return out;
}
