// Entry point of the chunker: a note file's bytes → title, tags, links, privacy flag and heading-aware chunks.
import type { ChunkDraft, ParsedNote, VaultPath } from '../../messages/common.js';
import type { ChunkOptions, ParseResult } from '../../messages/chunker.js';
import type { TokenCounter } from '../../messages/embedding.js';
import { decodeNote } from './decode.js';
import { frontmatterTags, isSensitive, noteTitle, readFrontmatter } from './frontmatter.js';
import { inlineFacts } from './inline-fields.js';
import { inlineRegions } from './inline-text.js';
import { LineIndex } from './line-index.js';
import { wikiLinks } from './links.js';
import { inlineRanges, parseBlocks } from './markdown.js';
import { chunkSection, contextLine, type PackContext } from './pack.js';
import { splitSections } from './sections.js';
import { inlineTags } from './tags.js';
import { UnitCutter } from './units.js';
import { sha256Hex } from '../../messages/hash.js';

export { CHUNKER_VERSION } from './version.js';

const MIN_MAX_TOKENS = 8; // room for a context line (at most half) and a few words

/**
 * Parses one note. Expected bad input (too large, binary, not UTF-8) comes back as a Failure; malformed
 * frontmatter does not fail the note: it is reported in `frontmatterError` and the body is still indexed.
 *
 * Chunks: one section per heading, never mixed; the preamble before the first heading has headingPath [].
 * Each chunk's content is a context line (`Title > Heading > Sub`) then a contiguous slice of the file; its
 * startLine/endLine are the file lines of that slice (frontmatter counted). A note with no body text gives one
 * chunk holding just its title, so every note can be found by name.
 */
export function parseNote(path: VaultPath, bytes: Buffer, tokens: TokenCounter, opts: ChunkOptions): ParseResult {
  checkOptions(opts, tokens);
  const decoded = decodeNote(bytes, opts.maxBytes);
  if (!decoded.ok) return decoded;
  const fileLines = decoded.text.split('\n');
  const fm = readFrontmatter(fileLines);
  // Blank the frontmatter out rather than cutting it off, so markdown-it's line numbers are the file's.
  const text = fm.bodyStartLine === 0 ? decoded.text : '\n'.repeat(fm.bodyStartLine) + fileLines.slice(fm.bodyStartLine).join('\n');
  const lines = new LineIndex(text);
  const blocks = parseBlocks(text);
  const regions = inlineRegions(text, lines, inlineRanges(blocks));
  const title = noteTitle(fm.data, path);

  const maxTokens = Math.min(opts.maxTokens, tokens.maxTokens);
  const ctx: PackContext = {
    text,
    lines,
    tokens,
    cutter: new UnitCutter(text, lines, tokens),
    maxTokens,
    overlapTokens: Math.min(opts.overlapTokens, Math.floor(maxTokens / 4)),
  };
  const chunks: ChunkDraft[] = [];
  for (const section of splitSections(blocks)) {
    for (const chunk of chunkSection(ctx, section, title)) chunks.push({ seq: chunks.length, ...chunk });
  }
  if (chunks.length === 0) chunks.push(titleChunk(ctx, title, fileLines));

  const note: ParsedNote = {
    path,
    title,
    contentHash: sha256Hex(bytes),
    frontmatter: fm.data,
    tags: [...new Set([...frontmatterTags(fm.data), ...inlineTags(regions)])],
    links: wikiLinks(regions, lines),
    sensitive: isSensitive(fm),
    chunks,
    facts: inlineFacts(regions, lines),
  };
  if (fm.error !== undefined) note.frontmatterError = fm.error;
  return { ok: true, note };
}

/** The stand-in chunk for a note with no body: its title, covering the whole file. */
function titleChunk(ctx: PackContext, title: string, fileLines: readonly string[]): ChunkDraft {
  const content = contextLine(ctx.tokens, [title], ctx.maxTokens);
  const lastLine = fileLines.length > 1 && fileLines[fileLines.length - 1] === '' ? fileLines.length - 1 : fileLines.length;
  return {
    seq: 0,
    content,
    headingPath: [],
    startLine: 1,
    endLine: Math.max(1, lastLine),
    tokenCount: ctx.tokens.count(content),
    hash: sha256Hex(content),
  };
}

function checkOptions(opts: ChunkOptions, tokens: TokenCounter): void {
  if (!Number.isInteger(opts.maxTokens) || opts.maxTokens < MIN_MAX_TOKENS) {
    throw new RangeError(`maxTokens must be an integer of at least ${MIN_MAX_TOKENS}, got ${opts.maxTokens}`);
  }
  if (!(tokens.maxTokens >= MIN_MAX_TOKENS)) {
    throw new RangeError(`the tokenizer's maxTokens must be at least ${MIN_MAX_TOKENS}, got ${tokens.maxTokens}`);
  }
  if (!Number.isInteger(opts.overlapTokens) || opts.overlapTokens < 0) {
    throw new RangeError(`overlapTokens must be a non-negative integer, got ${opts.overlapTokens}`);
  }
  if (!Number.isInteger(opts.maxBytes) || opts.maxBytes < 1) {
    throw new RangeError(`maxBytes must be a positive integer, got ${opts.maxBytes}`);
  }
}
