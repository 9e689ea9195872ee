// Shared by the chunker tests: simple token counters and a one-call way to parse a note from a string.
import { parseNote } from '../../actors/chunker/parse-note.js';
import type { ChunkOptions } from '../../messages/chunker.js';
import { vaultPath, type ParsedNote } from '../../messages/common.js';
import type { TokenCounter } from '../../messages/embedding.js';

const WORD_OR_MARK = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

/** One token per word and per punctuation mark: close enough to a subword tokenizer for shape tests. */
export function wordTokens(maxTokens = 128): TokenCounter {
  return {
    maxTokens,
    count: (text) => {
      let n = 0;
      for (const _ of text.matchAll(WORD_OR_MARK)) n++;
      return n;
    },
  };
}

/** One token per UTF-16 unit, whitespace included: joined pieces cost more than their parts, as with real tokenizers. */
export function charTokens(maxTokens: number): TokenCounter {
  return { maxTokens, count: (text) => text.length };
}

export const defaults: ChunkOptions = { maxTokens: 128, overlapTokens: 16, maxBytes: 2_000_000 };

/** Parses `text` as the note at `path`; a refusal is a test failure here (bad-input tests call parseNote). */
export function parse(text: string, path = 'Notes/Test Note.md', opts: Partial<ChunkOptions> = {}, tokens = wordTokens()): ParsedNote {
  const result = parseNote(vaultPath(path), Buffer.from(text, 'utf8'), tokens, { ...defaults, ...opts });
  if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
  return result.note;
}

/** A chunk's text without its context line (`Title > Heading`). */
export function bodyOf(content: string): string {
  return content.slice(content.indexOf('\n') + 1);
}

/** The file's lines `from`..`to` (1-based, inclusive), split the way an editor would. */
export function fileLines(text: string, from: number, to: number): string {
  return text
    .split(/\r\n|\r|\n/)
    .slice(from - 1, to)
    .join('\n');
}
