// The fact log in the index: one document per fact of `Memory/Log/YYYY-MM-DD.md` (source_type `fact`), skipping
// tombstoned ones. memory_remember's append indexes just its new line (O(new lines)); a log changed any other way
// (a person's edit, an undo, a restart that finds it changed) is read whole and diffed against the index.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { FACT_LOG_KEY_PREFIX } from '../../messages/episodes.js';
import type { TokenCounter } from '../../messages/embedding.js';
import { sha256Hex } from '../../messages/hash.js';
import type { IndexReader } from '../store-writer/index-reader.js';
import {
  distinctLines,
  factContentHash,
  factCopies,
  factInstant,
  isForgotten,
  lastHeaderLine,
  parseDayLog,
  parseTombstones,
  type ParsedFact,
  type Tombstones,
} from './fact-log.js';
import type { MemoryPaths } from './paths.js';
import { chunksOf } from './split.js';
import type { DraftDoc, Work } from './work.js';

export interface FileStat {
  mtimeMs: number;
  size: number;
  hash: string;
}

export interface FactLogDeps {
  vault: string;
  paths: MemoryPaths;
  reader(): IndexReader;
  work(w: Work): void;
  tokens: TokenCounter;
  maxTokens: number;
  wallNow(): number;
}

type FactCopy = Pick<ParsedFact, 'line' | 'text' | 'time' | 'who' | 'norm' | 'factId' | 'category' | 'tags'>;

/**
 * A fact's document from its copies in one day log (one id: the same normalised content), the first copy standing
 * for it (line, time, who, category). Copies that differ in their tags (`Dana drinks #coffee`, `Dana drinks
 * #matcha`) are one fact whose tags are every copy's and whose chunks are each distinct line, so every line is found.
 */
function factDoc(path0: string, date: string, copies: FactCopy[], d: FactLogDeps): DraftDoc {
  const f = copies[0]!;
  const atMs = factInstant(date, f.time);
  const lines = distinctLines(copies);
  const tags = [...new Set(lines.flatMap((c) => c.tags))];
  return {
    sourceType: 'fact',
    sourceId: f.factId,
    uri: path0,
    title: `${date} ${f.category ?? 'fact'}`,
    contentHash: factContentHash(lines),
    metadata: {
      fact_id: f.factId,
      path: path0,
      line: f.line,
      date,
      at_ms: atMs,
      category: f.category,
      tags,
      who: f.who,
      // every copy's author (repeats of a line too): a forget hides them all, so an agent may forget it only if all are its own
      whos: [...new Set(copies.map((c) => c.who))],
      norm: f.norm,
    },
    tags,
    atMs,
    chunks: lines.flatMap((c) => chunksOf(c.text, d.tokens, d.maxTokens, c.line)).map((chunk, seq) => ({ ...chunk, seq })),
    receivedAt: d.wallNow(),
  };
}

export class FactLogs {
  readonly #d: FactLogDeps;
  /** What the index last saw of each day log (also in its `meta`, so a restart knows). */
  #known = new Map<string, FileStat>();
  #tombstones: Tombstones = new Map();

  constructor(deps: FactLogDeps) {
    this.#d = deps;
  }

  get tombstones(): Tombstones {
    return this.#tombstones;
  }

  /** Reads what the index recorded and the tombstones, then brings every day log in step (a start, a rescan). */
  async reconcile(): Promise<void> {
    this.#known = new Map(
      [...this.#d.reader().metaWithPrefix(FACT_LOG_KEY_PREFIX)].map(([k, v]) => [
        k.slice(FACT_LOG_KEY_PREFIX.length),
        JSON.parse(v) as FileStat,
      ]),
    );
    const tombstones = await this.#loadTombstones();
    // tombstones the index has not applied (written by a forget a crash cut off before its commit's notice, or by a
    // person while the daemon was down) hide facts in day logs that did not change: every log is read again
    const applied = this.#known.get(this.#d.paths.tombstones);
    await this.#syncAll(applied?.hash !== tombstones?.hash);
    this.#record(this.#d.paths.tombstones, tombstones);
  }

  /**
   * memory_remember appended a line to `path` and committed it. The log is read again, but only what was appended
   * is parsed and indexed (sync finds the known text unchanged in front of it).
   */
  appended(rel: string): Promise<void> {
    return this.sync(rel, true);
  }

  /** Paths under the memory folder changed on disk: a tombstones change re-reads every log, a log change that log. */
  async changed(paths: string[]): Promise<void> {
    if (paths.includes(this.#d.paths.tombstones)) {
      const tombstones = await this.#loadTombstones();
      await this.#syncAll(true);
      this.#record(this.#d.paths.tombstones, tombstones);
      return;
    }
    for (const p of new Set(paths)) if (this.#d.paths.isDayLog(p)) await this.sync(p, true);
  }

  /** One day log against the index: what is new is upserted, what is gone or forgotten removed. */
  async sync(rel: string, onlyIfChanged = false): Promise<void> {
    const date = this.#d.paths.dateOf(rel);
    if (date === null) return;
    const abs = path.join(this.#d.vault, rel);
    let bytes: Buffer | null = null;
    let st: FileStat | null = null;
    try {
      const [s, b] = await Promise.all([stat(abs), readFile(abs)]);
      bytes = b;
      st = { mtimeMs: s.mtimeMs, size: s.size, hash: sha256Hex(b) };
    } catch {
      // gone: its facts go too
    }
    const known = this.#known.get(rel);
    if (onlyIfChanged && st && known && known.hash === st.hash) return this.#record(rel, st);
    // O(new lines): the text the index saw is unchanged in front; only the lines after it are new
    if (bytes && st && known && this.#appendedOnly(bytes, known) && this.#indexTail(rel, date, bytes, known.size))
      return this.#record(rel, st);
    const copies = bytes ? factCopies(bytes.toString('utf8'), date, this.#tombstones) : new Map<string, ParsedFact[]>();
    const want = new Map([...copies].map(([id, fs]) => [id, factDoc(rel, date, fs, this.#d)]));
    const have = new Map(
      this.#d
        .reader()
        .documentsWithPrefix('fact', `${date}#`)
        .map((x) => [x.sourceId, x]),
    );
    for (const [id, doc] of want) {
      const h = have.get(id);
      if (
        h &&
        h.contentHash === doc.contentHash &&
        h.metadata['line'] === doc.metadata['line'] &&
        h.metadata['at_ms'] === doc.metadata['at_ms']
      )
        continue;
      this.#d.work({ op: 'upsert', doc, fresh: false });
    }
    for (const id of have.keys()) if (!want.has(id)) this.#d.work({ op: 'delete', key: { sourceType: 'fact', sourceId: id } });
    this.#record(rel, st);
  }

  /** Whether `bytes` is the known text (whole lines) with more lines after it. */
  #appendedOnly(bytes: Buffer, known: FileStat): boolean {
    return (
      bytes.length > known.size &&
      known.size > 0 &&
      bytes[known.size - 1] === 0x0a &&
      sha256Hex(bytes.subarray(0, known.size)) === known.hash
    );
  }

  /**
   * Indexes the facts after byte `from` (a line start), under the header that was in force there; false, with
   * nothing indexed, when a new line is another copy of a fact (its document gathers every copy: the log is read whole).
   */
  #indexTail(rel: string, date: string, bytes: Buffer, from: number): boolean {
    const head = bytes.subarray(0, from).toString('utf8');
    const before = head.split('\n').length - 1; // lines wholly before the tail
    const header = lastHeaderLine(head);
    const tail = bytes.subarray(from).toString('utf8');
    // with the header in front, a parsed line n of the tail is line before + n - 1 of the log
    const shift = header ? before - 1 : before;
    const fresh = parseDayLog(header ? `${header}\n${tail}` : tail, date)
      .map((f) => ({ ...f, line: f.line + shift }))
      .filter((f) => !isForgotten(this.#tombstones, f.norm, date, f));
    const ids = new Set(fresh.map((f) => f.factId));
    if (ids.size < fresh.length || [...ids].some((id) => this.#d.reader().document('fact', id) !== null)) return false;
    for (const fact of fresh) this.#d.work({ op: 'upsert', doc: factDoc(rel, date, [fact], this.#d), fresh: false });
    return true;
  }

  async #syncAll(force: boolean): Promise<void> {
    const dir = path.join(this.#d.vault, this.#d.paths.logFolder);
    let names: string[] = [];
    try {
      names = await readdir(dir);
    } catch {
      // no log yet
    }
    const onDisk = names.map((n) => `${this.#d.paths.logFolder}/${n}`).filter((p) => this.#d.paths.isDayLog(p));
    for (const p of onDisk) {
      if (!force) {
        const known = this.#known.get(p);
        const s = await stat(path.join(this.#d.vault, p)).catch(() => null);
        if (known && s && known.mtimeMs === s.mtimeMs && known.size === s.size) continue; // unchanged since indexed
      }
      await this.sync(p);
    }
    for (const p of [...this.#known.keys()]) if (!onDisk.includes(p)) await this.sync(p);
  }

  /** Reads the tombstones; answers the file's stat and hash (null when there is none), recorded once they are applied. */
  async #loadTombstones(): Promise<FileStat | null> {
    const abs = path.join(this.#d.vault, this.#d.paths.tombstones);
    try {
      const [s, b] = await Promise.all([stat(abs), readFile(abs)]);
      this.#tombstones = parseTombstones(b.toString('utf8'));
      return { mtimeMs: s.mtimeMs, size: s.size, hash: sha256Hex(b) };
    } catch {
      this.#tombstones = new Map();
      return null;
    }
  }

  #record(rel: string, st: FileStat | null): void {
    if (st) this.#known.set(rel, st);
    else this.#known.delete(rel);
    this.#d.work({ op: 'meta', key: `${FACT_LOG_KEY_PREFIX}${rel}`, value: st ? JSON.stringify(st) : null });
  }
}
