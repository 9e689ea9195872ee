// Cuts a section's blocks into units that each fit the token budget: whole blocks when they fit, else smaller pieces.
import type { TokenCounter } from '../../messages/embedding.js';
import type { LineIndex } from './line-index.js';
import type { BlockNode } from './markdown.js';

/** A contiguous piece of the note, [start, end) offsets, that is never split further when packed. */
export interface Unit {
  start: number;
  end: number;
  tokens: number;
  /** Pieces cut from one block share this id; a chunk boundary between two of them breaks a thought mid-way. */
  block: number;
}

type Level = 'sentences' | 'lines' | 'words' | 'chars';

// Code, tables and raw HTML read line by line; prose reads sentence by sentence.
const LINE_BLOCKS = new Set(['fence', 'code_block', 'html_block', 'table', 'thead', 'tbody', 'tr', 'hr']);
const PROSE_LEVELS: Level[] = ['sentences', 'words', 'chars'];
const LINE_LEVELS: Level[] = ['lines', 'words', 'chars'];
const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

export class UnitCutter {
  readonly #text: string;
  readonly #lines: LineIndex;
  readonly #tokens: TokenCounter;
  #blocks = 0;

  constructor(text: string, lines: LineIndex, tokens: TokenCounter) {
    this.#text = text;
    this.#lines = lines;
    this.#tokens = tokens;
  }

  /** Units for the blocks, in order. A block that fits `budget` stays whole, so a fitting code fence is never split. */
  cut(blocks: readonly BlockNode[], budget: number): Unit[] {
    const out: Unit[] = [];
    for (const block of blocks) this.#block(block, budget, out);
    return out;
  }

  /** Splits one unit finer (words, then characters) so each piece fits `budget`. */
  split(unit: Unit, budget: number): Unit[] {
    const out: Unit[] = [];
    this.#leaf(unit.start, unit.end, ['words', 'chars'], budget, out, unit.block);
    return out;
  }

  #block(node: BlockNode, budget: number, out: Unit[]): void {
    if (!node.map) return;
    const range = this.#lineRange(node.map[0], node.map[1]);
    if (!range) return;
    const [start, end] = range;
    const tokens = this.#tokens.count(this.#text.slice(start, end));
    if (tokens <= budget) {
      out.push({ start, end, tokens, block: this.#blocks++ });
      return;
    }
    // Too big: fall back to its children (list items, table rows, a quote's paragraphs) before cutting text.
    const children = node.children.filter((c) => c.map !== null && c.type !== 'inline');
    if (children.length > 0) {
      for (const child of children) this.#block(child, budget, out);
    } else {
      this.#leaf(start, end, LINE_BLOCKS.has(node.type) ? LINE_LEVELS : PROSE_LEVELS, budget, out, this.#blocks++);
    }
  }

  #leaf(start: number, end: number, levels: readonly Level[], budget: number, out: Unit[], block: number): void {
    const [level, ...finer] = levels;
    for (const [s, e] of level === undefined ? [] : this.#pieces(start, end, level, budget)) {
      const tokens = this.#tokens.count(this.#text.slice(s, e));
      if (tokens <= budget || finer.length === 0) out.push({ start: s, end: e, tokens, block });
      else this.#leaf(s, e, finer, budget, out, block);
    }
  }

  #pieces(start: number, end: number, level: Level, budget: number): Array<[number, number]> {
    const src = this.#text.slice(start, end);
    const out: Array<[number, number]> = [];
    const push = (s: number, e: number): void => {
      const piece = src.slice(s, e);
      const lead = piece.length - piece.trimStart().length;
      const trail = piece.length - piece.trimEnd().length;
      // Lines keep their indentation (it is code structure); sentences and words are trimmed both sides.
      const from = level === 'lines' ? s : s + lead;
      if (e - trail > from) out.push([start + from, start + e - trail]);
    };
    switch (level) {
      case 'lines': {
        let s = 0;
        for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) {
          push(s, i);
          s = i + 1;
        }
        push(s, src.length);
        break;
      }
      case 'sentences':
        // A hard-wrapped line break is not a sentence end (UAX #29 says it is), so hide single newlines.
        for (const seg of sentences.segment(src.replace(/(?<!\n)\n(?!\n)/g, ' '))) push(seg.index, seg.index + seg.segment.length);
        break;
      case 'words':
        for (const m of src.matchAll(/\S+/g)) push(m.index, m.index + m[0].length);
        break;
      case 'chars':
        this.#hardCut(src, budget, push);
        break;
    }
    return out;
  }

  /** A word longer than the budget (a URL, base64): equal slices sized by its own chars-per-token, then shrunk to fit. */
  #hardCut(src: string, budget: number, push: (s: number, e: number) => void): void {
    const perToken = src.length / Math.max(1, this.#tokens.count(src));
    let size = Math.max(1, Math.floor(budget * perToken * 0.9));
    for (let s = 0; s < src.length; ) {
      let e = Math.min(src.length, s + size);
      while (e - s > 1 && this.#tokens.count(src.slice(s, avoidSurrogateSplit(src, s, e))) > budget) {
        size = Math.max(1, Math.floor((e - s) * 0.7));
        e = s + size;
      }
      e = avoidSurrogateSplit(src, s, e);
      push(s, e);
      s = e;
    }
  }

  /** Offsets of whole lines [from, to) minus blank lines at either end and trailing spaces; null if all blank. */
  #lineRange(from: number, to: number): [number, number] | null {
    let first = from;
    let last = to - 1;
    const text = this.#text;
    while (first <= last && text.slice(this.#lines.start(first), this.#lines.end(first)).trim() === '') first++;
    while (last >= first && text.slice(this.#lines.start(last), this.#lines.end(last)).trim() === '') last--;
    if (first > last) return null;
    let end = this.#lines.end(last);
    while (end > 0 && /\s/.test(text[end - 1]!)) end--;
    return [this.#lines.start(first), end];
  }
}

function avoidSurrogateSplit(src: string, s: number, e: number): number {
  if (e < src.length && e - s > 1) {
    const c = src.charCodeAt(e - 1);
    if (c >= 0xd800 && c <= 0xdbff) return e - 1;
  }
  return e;
}
