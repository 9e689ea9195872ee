// Types of the vault-mutation library: options, the path-check result, and what a successful mutation returns.
import type { Failure } from '../../../messages/common.js';
import type { Caller, WriteFailReason } from '../../../messages/vault-ops.js';

/** The reasons a path can be refused for; drawn from WriteFailReason so a renamed code fails to compile here. */
export type PathReason = Extract<WriteFailReason, 'path_escape' | 'not_markdown' | 'outside_allowlist' | 'reserved' | 'too_large'>;

/** Paths only the memory tools write (the fact log, its tombstones): refused to agents' writes, moves and deletes. */
export interface PathOptions {
  reserved?: (rel: string) => boolean;
  /** The memory tools' own appends: a reserved path is allowed (and only a reserved one), whatever its extension or folder. */
  privileged?: boolean;
}

/** A checked note path: `rel` is NFC with `/` separators; `abs` sits under the vault root's real path. */
export interface ResolvedPath {
  rel: string;
  abs: string;
}

export interface VaultWriterOptions {
  /** The vault folder; its real path (symlinks resolved) is the boundary nothing may be written past. */
  root: string;
  /** Top-level folders agents may write to, matched exactly and case-sensitively (e.g. `['Inbox', 'Meetings']`). */
  allowlist: string[];
  /** Largest content an agent may send, in UTF-8 bytes; defaults to DEFAULT_MAX_BYTES. */
  maxBytes?: number;
  /** Path-based sensitivity (e.g. a private folder); frontmatter flags are read from the note itself as well. */
  isSensitive?: (rel: string) => boolean;
  /** Paths reserved for the memory tools (memory.folder's Log/, tombstones.jsonl, log.md). */
  reserved?: (rel: string) => boolean;
}

export const DEFAULT_MAX_BYTES = 200 * 1024;

export type ApplyCaller = Caller & {
  mayReadSensitive?: boolean;
  /** The memory tools' appends (memory_remember, memory_forget): reserved paths only, no size cap on the whole file. */
  privileged?: boolean;
  /**
   * Awaited with the sha256 of a write's bytes just before they replace the note (after any frontmatter merge; the
   * new bytes are then durable in a temp file beside it). Only writes call it: a delete or move is applied at once.
   */
  beforeWrite?: (contentHash: string) => Promise<void>;
  /**
   * Given: a write hands over the fsync of the note's folder (which makes the rename durable) instead of awaiting it;
   * the caller overlaps it with the commit and awaits it before answering.
   */
  folderSync?: (synced: Promise<void>) => void;
};

/** A mutation that reached the disk. `mtimeMs`/`contentHash` describe the note afterwards (null after a delete). */
export interface ApplyOk {
  ok: true;
  paths: string[];
  mtimeMs: number | null;
  contentHash: string | null;
}

export type ApplyResult = ApplyOk | Failure<WriteFailReason>;
