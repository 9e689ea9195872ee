// Shared plain-data types that cross thread boundaries: paths, failures, notes, chunks, model identity.

/** A note's path relative to the vault root, POSIX separators, NFC-normalised, never starting with `/` or `..`. */
export type VaultPath = string & { readonly __brand: 'VaultPath' };

export function vaultPath(p: string): VaultPath {
  return p.normalize('NFC').replaceAll('\\', '/') as VaultPath;
}

/** Exhaustiveness check for tagged-union switches: a new message no one handles fails to compile. */
export function assertNever(x: never): never {
  throw new Error(`unhandled message: ${JSON.stringify(x)}`);
}

/** An expected failure, as data: a stable reason code and a message saying what to fix. */
export interface Failure<R extends string = string> {
  ok: false;
  reason: R;
  message: string;
}
export type Result<T, R extends string = string> = ({ ok: true } & T) | Failure<R>;

export function fail<R extends string>(reason: R, message: string): Failure<R> {
  return { ok: false, reason, message };
}

/** The index's source_type for vault notes (episodes and facts get their own). */
export const SOURCE_VAULT = 'vault';

/** Plain-data error for crossing threads (an Error subclass loses its fields in structured clone). */
export interface WireError {
  kind: string;
  message: string;
  stack?: string;
}
export function toWireError(err: unknown, kind = 'error'): WireError {
  if (err instanceof Error) return { kind: (err as { code?: string }).code ?? kind, message: err.message, stack: err.stack };
  // an Error subclass Node does not know (better-sqlite3's SqliteError) thrown on a worker outside runActor's handler
  // (a rejection nothing awaits) crosses as its own fields alone: its code is still its kind (SQLITE_CORRUPT…)
  const { code, message } = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return { kind: code, message: typeof message === 'string' ? message : `${code} (its message was lost)` };
  return { kind, message: String(err) };
}

/** Identity of the embedding model that built (or will build) an index. Vectors from different models never mix. */
export interface ModelInfo {
  provider: string; // 'use-lite' | 'onnx' | 'openai'
  name: string; // e.g. 'universal-sentence-encoder-lite'
  version: string; // package or file version
  dim: number;
}

export function modelKey(m: ModelInfo): string {
  return `${m.provider}:${m.name}@${m.version}/${m.dim}`;
}

/** One `[[wikilink]]` found in a note. */
export interface WikiLink {
  target: string; // note name or path, without extension, as written
  heading?: string; // [[note#heading]]
  alias?: string; // [[note|alias]]
  embed: boolean; // ![[note]]
  line: number; // 1-based
}

/** A heading-aware chunk of a note, ready to embed. */
export interface ChunkDraft {
  seq: number; // 0-based order within the note
  content: string; // text that is embedded and keyword-indexed
  headingPath: string[]; // e.g. ["Project Plan", "Design", "Schema"]
  startLine: number; // 1-based, inclusive, in the file (frontmatter counted)
  endLine: number; // 1-based, inclusive
  tokenCount: number; // by the embedding model's own tokenizer
  hash: string; // sha256 hex of content (whose context line carries the heading path), for vector reuse
}

/** A parsed note: what the chunker produces from a file's bytes. */
export interface ParsedNote {
  path: VaultPath;
  title: string;
  contentHash: string; // sha256 hex of the whole file's bytes
  frontmatter: Record<string, unknown>;
  frontmatterError?: string; // set when the YAML was malformed; the body is still indexed
  tags: string[]; // from frontmatter `tags` and inline #tags, without '#', deduplicated
  links: WikiLink[];
  sensitive: boolean; // frontmatter `memvault: local-only` or `sensitive: true`
  chunks: ChunkDraft[];
  /** Inline-field facts about the note's subject (its title), in line order (actors/chunker/inline-fields.ts). */
  facts: FactDraft[];
}

/** One `key:: value` inline field of a note: a fact whose subject is the note's title. */
export interface FactDraft {
  predicate: string; // snake_case, lower case
  object: string; // the value's text, or a wikilink's target note name
  /** The wikilink target as written (`People/Maya Chen`) when the value is one link, else null. */
  objectLink: string | null;
  validFrom: number | null; // epoch ms, from `[from:: …]` on the same line
  validUntil: number | null; // epoch ms, exclusive, from `[until:: …]`
  temporary: boolean; // `[temporary:: true]`
  confidence: number | null; // `[confidence:: 0.8]`
  line: number; // 1-based file line
  /** A validity field on the line that could not be read (the fact is kept, without it). */
  problem?: string;
}
