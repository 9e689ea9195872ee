// The vault mutation contract (the writes issue): what agents may ask the one mutation path to do, and what
// comes back — expected failures as data with stable reason codes.
import type { Failure } from './common.js';

/** Who asked: the agent id (from its token or the X-Memvault-Agent header) and its stated reason. */
export interface Caller {
  agent: string;
  reason?: string;
  /** The scheduler's skill that drafted the change (a `Memvault-Skill` trailer on its commit). */
  skill?: string;
  /** The dream's run and batch (`Memvault-Run`, `Memvault-Batch` trailers): `memvault undo --run` finds them. */
  run?: string;
  batch?: string;
}

export type VaultOp =
  | { op: 'write'; path: string; content: string; expectedMtime?: number; expectedHash?: string }
  | { op: 'delete'; path: string; expectedMtime?: number; expectedHash?: string }
  | { op: 'move'; from: string; to: string; expectedMtime?: number; expectedHash?: string };

export type WriteFailReason =
  | 'path_escape' // resolves outside the vault: `..`, absolute, drive letters, backslashes, NUL, symlinks out, Unicode tricks
  | 'not_markdown' // extension is not .md
  | 'outside_allowlist' // top-level folder not in the configured allowlist
  | 'too_large' // payload over the cap, or a path name over the file-system limit (255 bytes a name, 1024 the path)
  | 'conflict' // expected_mtime / expected hash no longer matches the file
  | 'missing' // delete/move of a note that does not exist
  | 'exists' // move onto a note that already exists
  | 'sensitive' // would expose a sensitive note's content to a caller not allowed to see it
  | 'invalid_content' // not valid UTF-8 text, or contains NUL
  | 'unavailable' // the vault or git is unusable; retry later
  | 'disk_full' // the vault's disk (or quota) is full: nothing was changed; retrying helps only once space is freed
  | 'busy' // the write queue is full; retry later
  | 'nothing_to_undo'
  | 'reserved'; // the fact log, its tombstones and Memory/log.md: only memory_remember and memory_forget append there

export interface MutationOk {
  ok: true;
  op: VaultOp['op'] | 'undo';
  paths: string[]; // vault-relative paths touched
  commit: string | null; // the commit that records it; null when the note already had exactly this content
  mtimeMs: number | null; // of the written note (null for delete)
  contentHash: string | null; // sha256 hex of the written bytes (null for delete)
}
export type MutationResult = MutationOk | Failure<WriteFailReason>;

/** A fact to append to today's log (memory_remember): content one line, category and tags checked by the gateway. */
export interface FactInput {
  content: string;
  category?: string;
  tags: string[];
  /** Who the log's `## HH:MM — who` header names: the session, else the agent. */
  who: string;
}

export type RememberResult =
  | { ok: true; fact_id: string; path: string; line: number; commit: string | null; at: string }
  | Failure<WriteFailReason>;

export interface UndoRequest {
  agent: string;
  /** only undo the most recent commit made by this agent */
  onlyMine: boolean;
}
