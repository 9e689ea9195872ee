// Scripts written without spaces between words (Chinese, Japanese, Thai, Khmer, Lao, Myanmar) and Korean, whose
// particles cling to words: FTS5's unicode61 tokenizer makes each whole run one token, so a word inside a run is
// never found. Such runs are indexed, and searched, as overlapping character pairs (bigrams), the classic
// CJK approach (Lucene's CJKBigramFilter); text in other scripts passes through untouched.

/** One run of characters in a script written without word spaces (marks stay with their letters). */
const LETTER = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Khmer}\p{Script=Lao}\p{Script=Myanmar}ー々〆]`;
export const UNSPACED_RUN = new RegExp(String.raw`(?:${LETTER}\p{M}*)+`, 'gu');
/** One character of such a run with its combining marks (Thai vowels and tone marks are marks). */
const CHAR = /\P{M}\p{M}*/gu;

/** Whether `text` holds any character of such a script. */
export function hasUnspaced(text: string | null | undefined): boolean {
  if (!text) return false;
  UNSPACED_RUN.lastIndex = 0;
  return UNSPACED_RUN.test(text);
}

function chars(run: string): string[] {
  return run.match(CHAR) ?? [];
}

/** The overlapping character pairs of a run ("列出仓库" → 列出, 出仓, 仓库). */
function pairs(cs: string[]): string[] {
  return cs.slice(1).map((c, i) => cs[i]! + c);
}

/**
 * The text as the bigram FTS table stores it: each run becomes its overlapping pairs plus its last character
 * alone ("列出仓库" → "列出 出仓 仓库 库"), so every character starts some token and a one-character query can
 * match as a prefix. Everything else is left as it is.
 */
export function bigramText(text: string | null | undefined): string {
  if (!text) return '';
  return text.normalize('NFKC').replace(UNSPACED_RUN, (run) => {
    const cs = chars(run);
    return ` ${[...pairs(cs), cs[cs.length - 1]!].join(' ')} `;
  });
}

/**
 * A query's runs as FTS5 terms: a run of two or more characters gives its pairs, a single character a prefix
 * term (it matches the pairs it starts and the run-final characters stored alone). Quoted, never an operator.
 */
export function bigramTerms(run: string): string[] {
  const cs = chars(run);
  if (cs.length === 1) return [`"${cs[0]}"*`];
  return pairs(cs).map((p) => `"${p}"`);
}

/** The runs of such scripts in `text` (NFKC-normalised by the caller), in order. */
export function unspacedRuns(normal: string): string[] {
  return normal.match(UNSPACED_RUN) ?? [];
}
