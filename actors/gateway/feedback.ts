// Pseudo-relevance feedback for hybrid search: the first pass's best notes are taken as relevant, and the query is
// moved toward them — its vector toward their chunks' vectors (Rocchio), its keywords widened by their words (RM3).
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';
import { STOPWORDS, TOKEN } from './fts-query.js';
import type { Ranked } from './group-by-note.js';
import { documentsOf } from './note-ranking.js';
import type { Feedback } from './ranking.js';

/** The best chunk of each of the first `k` distinct notes of `list` (best first). */
export function seedChunks(db: Database, list: Ranked[], k: number): Ranked[] {
  const docOf = documentsOf(
    db,
    list.map((r) => r.id),
  );
  const seen = new Set<number>();
  const out: Ranked[] = [];
  for (const r of list) {
    const d = docOf.get(r.id);
    if (d === undefined || seen.has(d)) continue;
    seen.add(d);
    out.push(r);
    if (out.length === k) break;
  }
  return out;
}

/**
 * q' = normalize(q + beta × mean of the seeds' stored vectors); `q` itself when no seed has a vector. The mean is
 * taken over unit vectors, so beta weighs it against the (unit) query.
 */
export function feedbackVector(db: Database, q: Float32Array, seeds: Ranked[], beta: number): Float32Array {
  if (seeds.length === 0 || beta === 0) return q;
  const rows = prepared(db, `SELECT v.embedding AS e FROM json_each(?) j CROSS JOIN memory_vectors v ON v.chunk_id = j.value`)
    .pluck()
    .all(JSON.stringify(seeds.map((s) => s.id))) as Buffer[];
  if (rows.length === 0) return q;
  const out = Float32Array.from(q);
  unitInPlace(out);
  const mean = new Float32Array(q.length);
  for (const b of rows) {
    // copy: a Buffer's offset into its pool need not be 4-byte aligned
    const v = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    if (v.length !== q.length) throw new Error(`stored vector has ${v.length} floats, the query ${q.length}`);
    unitInPlace(v);
    for (let i = 0; i < v.length; i++) mean[i]! += v[i]! / rows.length;
  }
  for (let i = 0; i < out.length; i++) out[i]! += beta * mean[i]!;
  return unitInPlace(out);
}

function unitInPlace(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** Words shorter than this are left out of an expansion: mostly flags and fragments. */
const MIN_LETTERS = 3;

/**
 * Up to `count` expansion words (quoted FTS5 terms) from the seeds' text: each word weighs its share of each seed's
 * words times that seed's score, summed (RM3's relevance model), stop words, numbers and the query's own words left
 * out; a word must occur in at least two seeds when there are several, so one note's jargon does not lead.
 */
export function expansionTerms(db: Database, queryTerms: string[], seeds: Ranked[], count: number): string[] {
  if (seeds.length === 0 || count <= 0) return [];
  const texts = prepared(db, `SELECT c.id, c.content FROM json_each(?) j CROSS JOIN memory_chunks c ON c.id = j.value`).all(
    JSON.stringify(seeds.map((s) => s.id)),
  ) as Array<{ id: number; content: string }>;
  const scoreOf = new Map(seeds.map((s) => [s.id, s.score]));
  const known = new Set(queryTerms.map((t) => t.slice(1, -1).replaceAll('""', '"')));
  const weight = new Map<string, { w: number; df: number }>();
  for (const { id, content } of texts) {
    const words = (content.normalize('NFKC').toLowerCase().match(TOKEN) ?? []).filter(
      (w) => w.length >= MIN_LETTERS && !/^\p{N}+$/u.test(w) && !STOPWORDS.has(w) && !known.has(w),
    );
    if (words.length === 0) continue;
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    const s = scoreOf.get(id) ?? 0;
    for (const [w, n] of tf) {
      const a = weight.get(w) ?? { w: 0, df: 0 };
      a.w += (n / words.length) * s;
      a.df++;
      weight.set(w, a);
    }
  }
  const minDf = texts.length > 1 ? 2 : 1;
  return [...weight]
    .filter(([, a]) => a.df >= minDf)
    .sort((x, y) => y[1].w - x[1].w || (x[0] < y[0] ? -1 : 1))
    .slice(0, count)
    .map(([w]) => `"${w.replaceAll('"', '""')}"`);
}

/** The first pass of a hybrid search and how to read a list again. */
export interface FirstPass {
  q: Float32Array;
  /** memory_fts terms of the query; empty when the query searched the bigram table or had no words */
  terms: string[];
  keyword: Ranked[];
  fused: Ranked[];
  /** the vector list for another query vector, as deep as the first */
  vectorOf: (q: Float32Array) => Ranked[];
  /** the bm25 list for other terms, as deep as the first */
  keywordOf: (terms: string[]) => Ranked[];
}

/** What feedback changes: a new vector list, and a further keyword list to fuse at `weight`; null when unchanged. */
export interface FeedbackLists {
  vector: Ranked[] | null;
  expansion: { items: Ranked[]; weight: number } | null;
}

export function applyFeedback(db: Database, fb: Feedback, first: FirstPass): FeedbackLists {
  if (fb.gate < 1) {
    const [a, b] = seedChunks(db, first.fused, 2);
    if (a && a.score - (b?.score ?? 0) >= fb.gate) return { vector: null, expansion: null };
  }
  let vector: Ranked[] | null = null;
  if (fb.vector) {
    const seeds = seedChunks(db, fb.vector.from === 'bm25' ? first.keyword : first.fused, fb.vector.k);
    const q2 = feedbackVector(db, first.q, seeds, fb.vector.beta);
    if (q2 !== first.q) vector = first.vectorOf(q2);
  }
  let expansion: FeedbackLists['expansion'] = null;
  if (fb.keyword && first.terms.length > 0) {
    const terms = expansionTerms(db, first.terms, seedChunks(db, first.fused, fb.keyword.k), fb.keyword.terms);
    if (terms.length > 0) expansion = { items: first.keywordOf(terms), weight: fb.keyword.weight };
  }
  return { vector, expansion };
}
