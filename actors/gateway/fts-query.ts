// Turns what a user typed into an FTS5 MATCH expression that can never be a syntax error: an OR of quoted words.
import { bigramTerms, UNSPACED_RUN, unspacedRuns } from '../store-writer/unspaced-scripts.js';

/** Words too common to help ranking; dropped unless the query has nothing else. They also make OR queries slow. */
const STOPWORDS = new Set(
  `a an and are as at be but by can do does for from had has have how i if in into is it its me my no not of on or our
   so than that the their them then there these they this to was we were what when where which who why will with you your`
    .split(/\s+/)
    .filter(Boolean),
);

/** More words than this add cost, not recall. */
const MAX_WORDS = 24;

/** What FTS5's unicode61 tokenizer keeps in a token (letters, numbers, marks, private use); all else separates. */
const TOKEN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/**
 * The FTS5 terms for what the user typed: each word split the way the tokenizer splits it and quoted, so
 * operators (`NEAR(`, `-`, `*`, `:`, `AND`) are plain text. No prefix matching: queries are finished questions.
 * Empty when the text has no word to look for. Joined by OR they match chunks holding ANY of the words; bm25 then ranks those with
 * more, and rarer, words first.
 */
export function ftsTerms(text: string): string[] {
  // NFKC folds compatibility forms (ligatures, full-width letters) the way a reader would read them.
  const normal = text.normalize('NFKC').toLowerCase();
  const words = [...new Set(normal.match(TOKEN) ?? [])];
  if (words.length === 0) return [];
  const content = words.filter((w) => !STOPWORDS.has(w));
  const kept = (content.length > 0 ? content : words).slice(0, MAX_WORDS);
  // No as-you-type prefix term: agents send finished questions, and an extra `last*` term double-weighted the
  // last word (recall@5 on the retrieval bench: 67.7% with it, 74.4% without).
  return kept.map(quote);
}

function quote(w: string): string {
  return `"${w.replaceAll('"', '""')}"`;
}

/** Which full-text table a query searches and with which terms. */
export interface FtsQuery {
  /** memory_fts, or memory_fts_bigram when the query holds text in a script written without word spaces. */
  table: 'memory_fts' | 'memory_fts_bigram';
  terms: string[];
  /**
   * A query mixing such runs with other words: those words alone, searched in memory_fts too, since the pair table
   * holds only chunks that have such text (a note without any would never be found by its words).
   */
  spaced?: string[];
}

/**
 * The table and terms for what the user typed. Chinese, Japanese, Korean, Thai… runs become character-pair terms
 * searched in the bigram table (which holds every chunk with such text); other words stay as ftsTerms makes them.
 */
export function ftsQuery(text: string): FtsQuery {
  const normal = text.normalize('NFKC');
  const runs = unspacedRuns(normal);
  if (runs.length === 0) return { table: 'memory_fts', terms: ftsTerms(text) };
  const rest = ftsTerms(normal.replace(UNSPACED_RUN, ' '));
  const pairs = [...new Set(runs.flatMap(bigramTerms))];
  return { table: 'memory_fts_bigram', terms: [...pairs, ...rest].slice(0, MAX_WORDS), ...(rest.length ? { spaced: rest } : {}) };
}
