// Linear-time SentencePiece (unigram) tokenizer for use-lite: the exact ids of the stock @energetic-ai tokenizer, quirks included.
//
// The stock tokenizer copies the rest of the input at every position (quadratic). This one walks a code-point
// trie from each position (bounded by the longest piece, 16 code points) and relaxes the Viterbi lattice forward.
// Relaxing candidates for each end position in ascending start order reproduces the stock loop exactly, including:
//   - a position with no matching piece becomes one unknown symbol (id 0) with score 0, and runs of id 0 merge;
//   - `best === 0` counts as "unset", so a later candidate always replaces a path whose total score is exactly 0;
//   - ties (`>=`) go to the later start; vocab scores of `null` (a few ':' pieces) add as 0;
//   - the backtrack steps back by the UTF-16 length of the chosen piece's string (pieces are all BMP, so this is
//     the code-point length, as the lattice uses).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TokenCounter } from '../../../messages/embedding.js';
import { useLitePackage } from './package-files.js';

/** The model's window: the graph drops every position at or past 128. */
export const USE_LITE_MAX_TOKENS = 128;

const SEPARATOR = '\u2581'; // ▁, SentencePiece's word-start mark
const SEPARATOR_CP = 0x2581;
const RESERVED_SYMBOLS = 6; // '�', <s>, </s>, extra_token_id_1..3: never matched
const CODE_POINTS = 0x110000; // trie edge key = node * CODE_POINTS + code point (< 2^53)

export interface UseLiteTokenizer extends TokenCounter {
  /** Piece ids for the whole text, as the model expects them (no start/end tokens). */
  encode(text: string): number[];
  /** The first `maxTokens` ids of `encode(text)`, computed from a bounded prefix of the text. */
  encodeForModel(text: string): number[];
  readonly vocabSize: number;
}

type Vocabulary = Array<[string, number | null]>;

class Tokenizer implements UseLiteTokenizer {
  readonly maxTokens = USE_LITE_MAX_TOKENS;
  readonly vocabSize: number;
  readonly #edges = new Map<number, number>();
  #pieceId: Int32Array; // per trie node: piece id ending here, or -1
  #pieceScore: Float64Array; // per trie node
  readonly #pieceLength: Int32Array; // per piece id: UTF-16 length of its string (used by the backtrack)

  constructor(vocab: Vocabulary) {
    this.vocabSize = vocab.length;
    this.#pieceLength = new Int32Array(vocab.length);
    for (let i = 0; i < vocab.length; i++) this.#pieceLength[i] = vocab[i]![0].length;
    const ids: number[] = [-1]; // node 0 is the root
    const scores: number[] = [0];
    for (let i = RESERVED_SYMBOLS; i < vocab.length; i++) {
      const [piece, score] = vocab[i]!;
      let node = 0;
      let depth = 0;
      for (const symbol of piece) {
        const key = node * CODE_POINTS + symbol.codePointAt(0)!;
        let next = this.#edges.get(key);
        if (next === undefined) {
          next = ids.length;
          ids.push(-1);
          scores.push(0);
          this.#edges.set(key, next);
        }
        node = next;
        depth++;
      }
      if (depth === 0) continue; // an empty piece never matches (stock inserts nothing either)
      ids[node] = i; // a duplicate piece (e.g. '”5') keeps the last id and score, as stock does
      scores[node] = score ?? 0; // stock adds `null + best`, which is `0 + best`
    }
    this.#pieceId = Int32Array.from(ids);
    this.#pieceScore = Float64Array.from(scores);
  }

  count(text: string): number {
    return this.encode(text).length;
  }

  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    if (normalized.length === 0) return [];
    return this.#viterbi(SEPARATOR + normalized.replaceAll(' ', SEPARATOR));
  }

  encodeForModel(text: string): number[] {
    const normalized = text.normalize('NFKC');
    if (normalized.length === 0) return [];
    const marked = SEPARATOR + normalized.replaceAll(' ', SEPARATOR);
    // No piece holds ▁ past its first symbol and '▁' is itself a piece, so every ▁ starts a token the best path
    // must pass through, and the ids before it depend only on the text before it. Each ▁-led word is at least one
    // token, so the first maxTokens words already give maxTokens ids, identical to the full text's.
    let cut = marked.length;
    let words = 0;
    for (let i = 0; i < marked.length; i++) {
      if (marked.charCodeAt(i) === SEPARATOR_CP && ++words > this.maxTokens) {
        cut = i;
        break;
      }
    }
    const ids = this.#viterbi(cut === marked.length ? marked : marked.slice(0, cut));
    return ids.length > this.maxTokens ? ids.slice(0, this.maxTokens) : ids;
  }

  #viterbi(input: string): number[] {
    const symbols: number[] = [];
    for (const symbol of input) symbols.push(symbol.codePointAt(0)!);
    const n = symbols.length;
    const best = new Float64Array(n + 1); // 0 means "unset" (stock's sentinel, kept on purpose)
    const words = new Int32Array(n + 1); // piece id of the best path's last piece ending here
    const edges = this.#edges;
    const pieceId = this.#pieceId;
    const pieceScore = this.#pieceScore;
    for (let start = 0; start < n; start++) {
      const base = best[start]!;
      let node = 0;
      let matched = false;
      for (let j = start; j < n; j++) {
        const next = edges.get(node * CODE_POINTS + symbols[j]!);
        if (next === undefined) break;
        node = next;
        const id = pieceId[node]!;
        if (id < 0) continue;
        matched = true;
        const score = pieceScore[node]! + base;
        const end = j + 1;
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score;
          words[end] = id;
        }
      }
      if (!matched) {
        // The unknown symbol: score 0, id 0, one symbol long.
        const end = start + 1;
        if (best[end] === 0 || base >= best[end]!) {
          best[end] = base;
          words[end] = 0;
        }
      }
    }
    const reversed: number[] = [];
    let previousUnknown = false;
    for (let at = n; at > 0; ) {
      const id = words[at]!;
      if (!(previousUnknown && id === 0)) reversed.push(id);
      previousUnknown = id === 0;
      at -= this.#pieceLength[id]!;
    }
    return reversed.reverse();
  }
}

let shared: Tokenizer | undefined;

/** The use-lite tokenizer, built once per thread from the model package's vocab.json (about 8,000 pieces). */
export function loadUseLiteTokenizer(): UseLiteTokenizer {
  if (!shared) {
    const vocabPath = path.join(useLitePackage().distDir, 'vocab.json');
    shared = new Tokenizer(JSON.parse(readFileSync(vocabPath, 'utf8')) as Vocabulary);
  }
  return shared;
}
