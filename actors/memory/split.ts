// Cuts an episode's text into chunks the model can read whole: contiguous slices (joined, they give the text back
// exactly) of at most `max` model tokens, cut at whitespace where a word allows it.
import type { ChunkDraft } from '../../messages/common.js';
import type { TokenCounter } from '../../messages/embedding.js';
import { sha256Hex } from '../../messages/hash.js';

/** Slices of `text` of at most `max` tokens each (a single word longer than that is cut by characters). */
export function splitByTokens(text: string, tokens: TokenCounter, max: number): string[] {
  if (tokens.count(text) <= max) return [text];
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const out: string[] = [];
  let cur = '';
  let curTokens = 0;
  // words counted one by one (linear in the text; a 64 KB text re-counted per word would be quadratic): the sum
  // can differ from the slice's own count by a token at a boundary, which the model's window absorbs
  for (const w of words) {
    const n = tokens.count(w);
    if (curTokens + n <= max) {
      cur += w;
      curTokens += n;
      continue;
    }
    if (cur !== '') out.push(cur);
    cur = '';
    curTokens = 0;
    if (n <= max) {
      cur = w;
      curTokens = n;
    } else out.push(...cutWord(w, tokens, max));
  }
  if (cur !== '') out.push(cur);
  return out;
}

function cutWord(word: string, tokens: TokenCounter, max: number): string[] {
  const out: string[] = [];
  let rest = word;
  while (rest.length > 0) {
    let lo = 1;
    let hi = rest.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (tokens.count(rest.slice(0, mid)) <= max) lo = mid;
      else hi = mid - 1;
    }
    out.push(rest.slice(0, lo));
    rest = rest.slice(lo);
  }
  return out;
}

/**
 * Chunk drafts of an episode's text (no heading path; lines point at the log line for facts, else 0). `known`: its
 * token count when the caller has it (the sum of its lines' counts), saving a count of the whole text.
 */
export function chunksOf(text: string, tokens: TokenCounter, max: number, line = 0, known?: number): ChunkDraft[] {
  if (known !== undefined && known <= max)
    return [{ seq: 0, content: text, headingPath: [], startLine: line, endLine: line, tokenCount: known, hash: sha256Hex(text) }];
  return splitByTokens(text, tokens, max).map((content, seq) => ({
    seq,
    content,
    headingPath: [],
    startLine: line,
    endLine: line,
    tokenCount: tokens.count(content),
    hash: sha256Hex(content),
  }));
}
