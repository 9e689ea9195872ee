// recorded_at from git history: a fact line the index records for the first time is stamped with the author time of
// the commit that brought the line in (`git blame --porcelain` of the note, which follows the note's renames); a
// line not committed yet, a note outside git, or git missing leave it to the index time. Only notes with facts new to
// the index ask git, and a note whose bytes are exactly what the one commit that added it holds (a vault imported in
// one commit, its first index) needs no blame: one `git log` of the repository, kept a while, answers for all of them.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { sha256Hex } from '../../messages/hash.js';
import type { FactForStore } from '../../messages/store.js';
import { git } from '../git-writer/git-cli.js';
import { factKey } from '../chunker/inline-fields.js';
import { prepared } from './statement-cache.js';

/** One blamed line: the commit that brought it in (all zeros: not committed yet), its author time (epoch ms), its text. */
export interface BlamedLine {
  sha: string;
  authorMs: number;
  text: string;
}

const ZERO = /^0+$/;

/** `git blame --porcelain` output → final line number (1-based) → the commit and text of that line. */
export function parseBlame(porcelain: string): Map<number, BlamedLine> {
  const out = new Map<number, BlamedLine>();
  const times = new Map<string, number>();
  let sha = '';
  let line = 0;
  for (const raw of porcelain.split('\n')) {
    if (raw.startsWith('\t')) {
      if (line > 0) out.set(line, { sha, authorMs: times.get(sha) ?? Number.NaN, text: raw.slice(1) });
      continue;
    }
    const head = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/.exec(raw);
    if (head) {
      sha = head[1]!;
      line = Number(head[2]);
      continue;
    }
    if (raw.startsWith('author-time ')) times.set(sha, Number(raw.slice(12)) * 1000);
  }
  return out;
}

/** The facts of `sourceId` that have no live row yet (matched as the writer matches them: by key, each row once). */
export function factsNewToIndex(db: Database, userId: string, sourceId: string, facts: readonly FactForStore[]): FactForStore[] {
  const live = prepared(
    db,
    `SELECT f.fact_key FROM knowledge_facts f JOIN memory_documents d ON d.id = f.document_id
     WHERE d.user_id = ? AND d.source_type = 'vault' AND d.source_id = ? AND d.deleted_at IS NULL AND f.invalidated_at IS NULL`,
  )
    .pluck()
    .all(userId, sourceId) as string[];
  const left = new Map<string, number>();
  for (const k of live) left.set(k, (left.get(k) ?? 0) + 1);
  return facts.filter((f) => {
    const k = factKey(f);
    const n = left.get(k) ?? 0;
    if (n === 0) return true;
    left.set(k, n - 1);
    return false;
  });
}

export type StampOutcome = 'none_new' | 'stamped' | 'stamped_from_log' | 'not_in_git';

/** A note added by exactly one commit and never touched since: its blob id and that commit's author time. */
interface AddedOnce {
  blob: string;
  authorMs: number;
}

/** How long one `git log` of the repository answers before it is read again (commits made since are blamed meanwhile). */
const LOG_TTL_MS = 5 * 60_000;

/**
 * Markdown paths touched by exactly one commit, which added them (renames show as a delete and an add: a blob that
 * the same commit deleted elsewhere is a rename, left to blame, which follows it).
 */
export function parseAddedOnce(log: string): Map<string, AddedOnce> {
  const touched = new Map<string, number>();
  const added = new Map<string, AddedOnce>();
  for (const commit of log.split('\u0001').slice(1)) {
    const [head = '', ...rows] = commit.split('\n');
    const authorMs = Number(head.trim()) * 1000;
    const deleted = new Set<string>();
    const adds: Array<[string, string]> = [];
    for (const row of rows) {
      const m = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*\t(.*)$/.exec(row);
      if (!m) continue;
      const [, oldBlob, newBlob, status, p] = m as unknown as [string, string, string, string, string];
      touched.set(p, (touched.get(p) ?? 0) + 1);
      if (status === 'D') deleted.add(oldBlob);
      if (status === 'A') adds.push([p, newBlob]);
    }
    for (const [p, blob] of adds) if (!deleted.has(blob)) added.set(p, { blob, authorMs });
  }
  for (const p of [...added.keys()]) if (touched.get(p) !== 1) added.delete(p);
  return added;
}

/** The git object id of `bytes` as a blob, in the repository's hash (sha1: 40 hex digits, sha256: 64). */
function blobId(bytes: Buffer, hexLen: number): string {
  return createHash(hexLen === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}

/** The store writer's git dating: the repository's added-once notes (from one `git log`, refreshed after LOG_TTL_MS), then blame. */
export class GitDating {
  #log: { at: number; added: Map<string, AddedOnce> } | null = null;
  constructor(
    readonly vault: string,
    readonly now: () => number = Date.now,
  ) {}

  #reading: Promise<Map<string, AddedOnce>> | null = null;

  /** Reads the log now (the bench times it on its own; the store writer reads it when a note first brings new facts). */
  prefetch(): Promise<unknown> {
    return this.#addedOnce();
  }

  #addedOnce(): Promise<Map<string, AddedOnce>> {
    if (this.#log && this.now() - this.#log.at < LOG_TTL_MS) return Promise.resolve(this.#log.added);
    this.#reading ??= this.#read().finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  async #read(): Promise<Map<string, AddedOnce>> {
    const r = await git(this.vault, [
      '-c',
      'core.quotePath=false',
      'log',
      '--relative', // paths from the vault folder, which may sit below the repository's root
      '--no-renames',
      '--raw',
      '--no-abbrev',
      '--format=%x01%at',
      '--',
      '*.md',
    ]);
    // no repository yet (the git writer may be making it, importing the notes): asked again in 10 s, not 5 min
    this.#log = { at: r.ok ? this.now() : this.now() - LOG_TTL_MS + 10_000, added: r.ok ? parseAddedOnce(r.stdout) : new Map() };
    return this.#log.added;
  }

  /**
   * Sets `recordedAt` on the facts of `rel` new to the index. `contentHash` (sha256 of the bytes the facts were read
   * from) must still be the file's, or the log's answer is not used. A blamed line that does not carry the fact's key
   * (the file changed since it was read) is left to the index time rather than misdated.
   */
  async stamp(db: Database, userId: string, rel: string, facts: readonly FactForStore[], contentHash: string): Promise<StampOutcome> {
    const fresh = factsNewToIndex(db, userId, rel, facts);
    if (fresh.length === 0) return 'none_new';
    const once = (await this.#addedOnce()).get(rel);
    if (once) {
      const bytes = await readFile(path.join(this.vault, ...rel.split('/'))).catch(() => null);
      if (bytes && sha256Hex(bytes) === contentHash && blobId(bytes, once.blob.length) === once.blob) {
        for (const f of fresh) f.recordedAt = once.authorMs;
        return 'stamped_from_log';
      }
    }
    return stampFromBlame(this.vault, rel, fresh);
  }
}

/** Sets `recordedAt` on `fresh` (facts of `rel` new to the index) from the note's git blame. */
export async function stampFromBlame(vault: string, rel: string, fresh: readonly FactForStore[]): Promise<StampOutcome> {
  const r = await git(vault, ['blame', '--porcelain', '--', rel]);
  if (!r.ok) return 'not_in_git';
  const lines = parseBlame(r.stdout);
  for (const f of fresh) {
    const b = lines.get(f.line);
    if (!b || ZERO.test(b.sha) || !Number.isFinite(b.authorMs)) continue;
    if (!b.text.toLowerCase().replaceAll('-', '_').includes(`${f.predicate}::`)) continue;
    f.recordedAt = b.authorMs;
  }
  return 'stamped';
}
