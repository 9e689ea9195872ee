// The chunker's call contract: options that size chunks, and the parse result with its expected failures as data.
import type { Failure, ParsedNote } from './common.js';

/** How the chunker sizes its output; tokens are counted by the embedding model's own tokenizer. */
export interface ChunkOptions {
  /** Upper bound on `tokens.count(chunk.content)`, context line included; clamped to `tokens.maxTokens`. At least 8. */
  maxTokens: number;
  /**
   * Tokens repeated from the end of one chunk at the start of the next where a cut falls inside a block (a long
   * paragraph or code block); at most a quarter of maxTokens. Cuts between whole blocks carry no overlap.
   */
  overlapTokens: number;
  /** Files larger than this are refused with `too_large`. */
  maxBytes: number;
}

/** Why a file could not be parsed as a note; stable codes, a subset of the store's FileFailReason. */
export type ParseFailureReason = 'not_utf8' | 'binary' | 'too_large';

export type ParseResult = ({ ok: true } & { note: ParsedNote }) | Failure<ParseFailureReason>;
