// BERT basic tokenizer + WordPiece, matching HF tokenizers' BertNormalizer/BertPreTokenizer/WordPiece on common text.

/** BertNormalizer settings, as in tokenizer.json (`strip_accents: null` there means "same as lowercase"). */
export interface BertNormalizerOptions {
  cleanText: boolean;
  handleChineseChars: boolean;
  stripAccents: boolean;
  lowercase: boolean;
}

/** Everything the tokenizer needs; built from tokenizer.json or vocab.txt by tokenizer-files.ts. */
export interface BertTokenizerSpec {
  vocab: ReadonlyMap<string, number>;
  normalizer: BertNormalizerOptions;
  unkToken: string;
  continuingSubwordPrefix: string; // '##'
  maxInputCharsPerWord: number; // 100: longer words become [UNK] whole
  clsToken: string;
  sepToken: string;
  padToken: string;
}

const CONTROL = /\p{C}/u; // Cc Cf Cs Co Cn: HF drops these, except the whitespace controls below
const WHITESPACE = /\s/u;
const PUNCT = /[!-/:-@[-`{-~]|\p{P}/u; // ASCII symbols like $ + ^ count as punctuation for BERT
const NONSPACING_MARK = /\p{Mn}/gu;

function isChineseChar(cp: number): boolean {
  // The CJK Unified Ideograph blocks BERT splits out; Hangul and kana are deliberately not here.
  // 0x2B920 (not Python BERT's 0x2B820) is what HF tokenizers uses, and tokenizer.json users run that.
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b920 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/** BertNormalizer, in the HF tokenizers order: clean, space out CJK, strip accents, lowercase. */
export function normalizeBert(text: string, o: BertNormalizerOptions): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (o.cleanText) {
      if (ch === '\t' || ch === '\n' || ch === '\r') {
        out += ' ';
        continue;
      }
      if (cp === 0 || cp === 0xfffd || CONTROL.test(ch)) continue;
      if (WHITESPACE.test(ch)) {
        out += ' ';
        continue;
      }
    }
    out += o.handleChineseChars && isChineseChar(cp) ? ` ${ch} ` : ch;
  }
  if (o.stripAccents) out = out.normalize('NFD').replace(NONSPACING_MARK, '');
  if (o.lowercase) out = out.toLowerCase();
  return out;
}

/** BertPreTokenizer: split on whitespace, and every punctuation character becomes its own word. */
export function preTokenizeBert(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  for (const ch of text) {
    if (WHITESPACE.test(ch)) {
      if (cur) words.push(cur);
      cur = '';
    } else if (PUNCT.test(ch)) {
      if (cur) words.push(cur);
      words.push(ch);
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur) words.push(cur);
  return words;
}

/** Greedy longest-match-first WordPiece; a word with any unmatched remainder becomes a single unk token. */
export function wordPiece(word: string, spec: BertTokenizerSpec): string[] {
  const chars = Array.from(word);
  if (chars.length > spec.maxInputCharsPerWord) return [spec.unkToken];
  const pieces: string[] = [];
  let start = 0;
  while (start < chars.length) {
    let end = chars.length;
    let found: string | undefined;
    while (start < end) {
      const sub = (start > 0 ? spec.continuingSubwordPrefix : '') + chars.slice(start, end).join('');
      if (spec.vocab.has(sub)) {
        found = sub;
        break;
      }
      end--;
    }
    if (found === undefined) return [spec.unkToken];
    pieces.push(found);
    start = end;
  }
  return pieces;
}

const WORD_CACHE_LIMIT = 20_000; // the chunker counts the same words again and again; bound the memory

/** A BERT tokenizer: text → WordPiece tokens/ids, without [CLS]/[SEP] (the caller frames the window). */
export class BertTokenizer {
  readonly spec: BertTokenizerSpec;
  readonly clsId: number;
  readonly sepId: number;
  readonly padId: number;
  readonly unkId: number;
  #cache = new Map<string, number[]>();

  constructor(spec: BertTokenizerSpec) {
    this.spec = spec;
    this.clsId = idOf(spec, spec.clsToken);
    this.sepId = idOf(spec, spec.sepToken);
    this.unkId = idOf(spec, spec.unkToken);
    this.padId = spec.vocab.get(spec.padToken) ?? 0; // padded positions are masked out, so any id works
  }

  /** WordPiece tokens as strings, for inspection and tests. */
  tokenize(text: string): string[] {
    return preTokenizeBert(normalizeBert(text, this.spec.normalizer)).flatMap((w) => wordPiece(w, this.spec));
  }

  /** Token ids, without special tokens. */
  encode(text: string): number[] {
    const ids: number[] = [];
    for (const word of preTokenizeBert(normalizeBert(text, this.spec.normalizer))) {
      let wordIds = this.#cache.get(word);
      if (!wordIds) {
        wordIds = wordPiece(word, this.spec).map((p) => this.spec.vocab.get(p) ?? this.unkId);
        if (this.#cache.size >= WORD_CACHE_LIMIT) this.#cache.clear();
        this.#cache.set(word, wordIds);
      }
      for (const id of wordIds) ids.push(id);
    }
    return ids;
  }
}

function idOf(spec: BertTokenizerSpec, token: string): number {
  const id = spec.vocab.get(token);
  // tokenizer-files.ts checks these before constructing; reaching here is a bug.
  if (id === undefined) throw new Error(`special token ${token} is not in the vocabulary`);
  return id;
}
