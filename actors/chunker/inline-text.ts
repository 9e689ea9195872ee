// The searchable inline text of a note, with code spans blanked out, so links and tags are never read from code.
import type { LineIndex } from './line-index.js';

export interface InlineRegion {
  /** Offset of `text` in the note. */
  offset: number;
  /** The region's source with every code span replaced by spaces (newlines kept, so offsets still line up). */
  text: string;
}

/** Regions for the given 0-based line ranges (from markdown-it's inline tokens). */
export function inlineRegions(note: string, lines: LineIndex, ranges: ReadonlyArray<[number, number]>): InlineRegion[] {
  return ranges.map(([from, to]) => {
    const offset = lines.start(from);
    return { offset, text: blankCodeSpans(note.slice(offset, lines.end(to - 1))) };
  });
}

/**
 * CommonMark code spans: a run of n backticks opens, the next run of exactly n closes; an unmatched run is
 * literal. A backslash escapes the first backtick of a run outside code. Runs are indexed by length first, so
 * finding each closer is a cursor step, not a rescan: linear even for a ladder of ever-longer runs.
 */
export function blankCodeSpans(src: string): string {
  if (!src.includes('`')) return src;
  const starts: number[] = [];
  const lengths: number[] = [];
  const byLength = new Map<number, number[]>(); // run length → indexes of runs of exactly that length
  for (let i = src.indexOf('`'); i >= 0; ) {
    let n = 0;
    while (src[i + n] === '`') n++;
    const list = byLength.get(n) ?? [];
    byLength.set(n, list);
    list.push(starts.length);
    starts.push(i);
    lengths.push(n);
    i = src.indexOf('`', i + n);
  }
  const cursor = new Map<number, number>(); // per length: position in its list, only ever moves forward
  let out = '';
  let copied = 0;
  for (let r = 0; r < starts.length; r++) {
    let open = starts[r]!;
    let n = lengths[r]!;
    let backslashes = 0;
    for (let k = open - 1; k >= copied && src[k] === '\\'; k--) backslashes++;
    if (backslashes % 2 === 1) {
      open++;
      n--;
    }
    const list = byLength.get(n);
    if (!list) continue;
    let c = cursor.get(n) ?? 0;
    while (c < list.length && list[c]! <= r) c++;
    cursor.set(n, c);
    const close = list[c];
    if (close === undefined) continue;
    const end = starts[close]! + n;
    out += src.slice(copied, open) + src.slice(open, end).replace(/[^\n]/g, ' ');
    copied = end;
    r = close;
  }
  return out + src.slice(copied);
}

/**
 * The regions with Obsidian comments (`%%…%%`) blanked out like code spans (newlines kept): a comment may span
 * lines and regions (paragraphs), and one never closed runs to the end of the note, as Obsidian hides it. A `%%` in
 * code (already blanked, or outside every region) opens nothing.
 */
export function blankComments(regions: readonly InlineRegion[]): InlineRegion[] {
  let open = false;
  return regions.map((region) => {
    const src = region.text;
    if (!open && !src.includes('%%')) return region;
    let text = '';
    for (let at = 0; ; ) {
      const mark = src.indexOf('%%', at);
      const end = mark < 0 ? src.length : mark;
      text += open ? src.slice(at, end).replace(/[^\n]/g, ' ') : src.slice(at, end);
      if (mark < 0) break;
      text += '  ';
      open = !open;
      at = mark + 2;
    }
    return { offset: region.offset, text };
  });
}
