// Packs a section's units into chunks under the token limit, with heading context in front and a small overlap.
import type { ChunkDraft } from '../../messages/common.js';
import type { TokenCounter } from '../../messages/embedding.js';
import type { LineIndex } from './line-index.js';
import type { Section } from './sections.js';
import type { Unit, UnitCutter } from './units.js';
import { sha256Hex } from '../../messages/hash.js';

export interface PackContext {
  text: string;
  lines: LineIndex;
  tokens: TokenCounter;
  cutter: UnitCutter;
  maxTokens: number;
  overlapTokens: number;
}

/** Chunk text = context line + `\n` + a contiguous slice of the note; the separator is budgeted as one token. */
const SEPARATOR_TOKENS = 1;

export type SectionChunk = Omit<ChunkDraft, 'seq'>;

/**
 * Chunks for one section. Each chunk starts with a context line, `Title > Heading > Sub`, so a chunk read alone
 * (by the embedder, or in a search hit) still says where it is; the title is left out when the first heading
 * already says it. The context line is counted in the chunk's tokens and kept to a quarter of the limit.
 */
export function chunkSection(ctx: PackContext, section: Section, title: string): SectionChunk[] {
  const parts = [title, ...section.headingPath].filter((p) => p !== '');
  if (parts.length > 1 && parts[0]!.toLowerCase() === parts[1]!.toLowerCase()) parts.shift();
  const crumb = contextLine(ctx.tokens, parts, Math.floor(ctx.maxTokens / 4));
  const budget = ctx.maxTokens - (crumb === '' ? 0 : ctx.tokens.count(crumb) + SEPARATOR_TOKENS);
  const units = ctx.cutter.cut(section.blocks, budget);
  return packSection(ctx, units, section.headingPath, crumb, budget);
}

/**
 * `parts` joined by ' > ', within `limit` tokens. When too long, the middle headings go first (the note's
 * title and the section's own heading say the most), then the title, then the heading's text is cut.
 */
export function contextLine(tokens: TokenCounter, parts: readonly string[], limit: number): string {
  const kept = [...parts];
  let line = kept.join(' > ');
  while (kept.length > 1 && tokens.count(line) > limit) {
    kept.splice(kept.length > 2 ? 1 : 0, 1);
    line = kept.join(' > ');
  }
  if (tokens.count(line) <= limit) return line;
  let lo = 0;
  let hi = line.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tokens.count(line.slice(0, mid)) <= limit) lo = mid;
    else hi = mid - 1;
  }
  const cut = line.slice(0, lo);
  const space = cut.lastIndexOf(' ');
  return (space > 0 ? cut.slice(0, space) : cut).trimEnd();
}

/**
 * Greedy packing by the units' own counts, then one real count of the finished text: tokenizers are not additive
 * (a line break or a word joined to the previous one can cost an extra piece), so a chunk that comes out too
 * long gives back its overlap, then its last units, and a lone unit that still does not fit is cut finer.
 * Every unit is counted once and every chunk about once, so the cost is linear in the note's length.
 */
function packSection(ctx: PackContext, units: Unit[], headingPath: string[], crumb: string, budget: number): SectionChunk[] {
  const { text, tokens, maxTokens } = ctx;
  const prefix = crumb === '' ? '' : crumb + '\n';
  const out: SectionChunk[] = [];
  let prevStart = -1; // offset where the previous chunk of this section began
  let i = 0;
  while (i < units.length) {
    const first = units[i]!;
    let start = first.start;
    let sum = first.tokens;
    // Overlap only where the previous chunk ended inside a block: a cut between whole blocks already falls at a
    // paragraph or list-item boundary, and a tail carried over there (half a command, a dangling clause) is noise.
    if (out.length > 0 && ctx.overlapTokens > 0 && units[i - 1]?.block === first.block) {
      const prev = out[out.length - 1]!;
      const overlap = findOverlap(ctx, prevStart, first.start, prev.content.length / Math.max(1, prev.tokenCount));
      if (overlap && overlap.tokens + SEPARATOR_TOKENS + first.tokens <= budget) {
        start = overlap.start;
        sum += overlap.tokens + SEPARATOR_TOKENS;
      }
    }
    let end = i + 1;
    while (end < units.length && sum + SEPARATOR_TOKENS + units[end]!.tokens <= budget) {
      sum += SEPARATOR_TOKENS + units[end]!.tokens;
      end++;
    }
    // Keep a lead-in ("Run this:") with what it introduces rather than ending a chunk on it.
    if (end < units.length && end - 1 > i && text[units[end - 1]!.end - 1] === ':') end--;
    for (;;) {
      const content = prefix + text.slice(start, units[end - 1]!.end);
      const count = tokens.count(content);
      if (count <= maxTokens) {
        out.push(draft(ctx, content, headingPath, start, units[end - 1]!.end, count));
        break;
      }
      // Give back the overlap first (new text matters more than repeated text), then trailing units one by one.
      if (start < first.start) start = first.start;
      else if (end - 1 > i) end--;
      else {
        // One unit with its context is still too long: cut it so the pieces fit what the context leaves over.
        const pieces = ctx.cutter.split(first, Math.max(1, first.tokens - (count - maxTokens) - SEPARATOR_TOKENS));
        if (pieces.length < 2) throw new Error(`cannot fit ${count} tokens at offset ${first.start} into ${maxTokens}`);
        units.splice(i, 1, ...pieces);
        end = -1;
        break;
      }
    }
    if (end < 0) continue; // retry from the same place with the finer units
    prevStart = start;
    i = end;
  }
  return out;
}

/**
 * A word-aligned tail of the previous chunk (never all of it) of at most `overlapTokens`. The first guess uses
 * the previous chunk's own characters per token, so one or two counts of a short string usually settle it.
 */
function findOverlap(
  ctx: PackContext,
  prevStart: number,
  nextStart: number,
  charsPerToken: number,
): { start: number; tokens: number } | null {
  const { text, tokens, overlapTokens } = ctx;
  let want = Math.max(1, Math.floor(overlapTokens * charsPerToken));
  for (let tries = 0; tries < 4 && want > 0; tries++) {
    let s = Math.max(prevStart + 1, nextStart - want);
    while (s < nextStart && !(/\s/.test(text[s - 1]!) && !/\s/.test(text[s]!))) s++; // forward to a word start
    if (s >= nextStart) return null;
    // A tail that starts a line reads better than one that starts mid-sentence; take it if the window has one.
    let line = s;
    while (line < nextStart && text[line] !== '\n') line++; // bounded by the window: indexOf could run to the end
    if (line + 1 < nextStart && text.slice(line + 1, nextStart).trim() !== '') {
      s = line + 1;
      while (/[ \t]/.test(text[s]!)) s++;
    }
    const n = tokens.count(text.slice(s, nextStart).trimEnd());
    if (n <= overlapTokens) return { start: s, tokens: n };
    want = Math.floor((nextStart - s) * (overlapTokens / n) * 0.9);
  }
  return null;
}

function draft(ctx: PackContext, content: string, headingPath: string[], start: number, end: number, tokenCount: number): SectionChunk {
  return {
    content,
    headingPath: [...headingPath],
    startLine: ctx.lines.lineOf(start) + 1,
    endLine: ctx.lines.lineOf(Math.max(start, end - 1)) + 1,
    tokenCount,
    hash: sha256Hex(content),
  };
}
