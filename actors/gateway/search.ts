// Hybrid search over the index: BM25 (FTS5) and vector KNN (coarse bit pass, exact re-score), fused as ranking.ts says.
import type { Database } from 'better-sqlite3';
import type { SearchFilters, SearchHit, SearchRequest } from '../../messages/store.js';
import { vectorDim } from '../store-writer/schema.js';
import { prepared } from '../store-writer/statement-cache.js';
import { type FtsQuery, ftsQuery } from './fts-query.js';
import { fuseLists } from './fusion.js';
import { CHUNKS_PER_NOTE, groupByNote, type NoteGroup, type Ranked } from './group-by-note.js';
import { COMPLETE_DEPTH, completeLists } from './note-rescore.js';
import { type ChunkList, rankNotes } from './note-ranking.js';
import { DEFAULT_RANKING, MIN_DEPTH, type Ranking } from './ranking.js';
/**
 * Bit-vector candidates per wanted hit before exact re-scoring. Recall@10 against exact float KNN at 10:
 * 0.96 on 12k real universal-sentence-encoder vectors of the corpora (8: 0.95, 15: 0.98, 20: 0.99), 1.00 on
 * 100k synthetic clustered ones (bench/search-latency.ts prints the sweep). Each candidate costs ~60 µs at
 * 100k vectors (sqlite-vec's top-k is linear in k), so 10 is about 9 ms there.
 */
export const DEFAULT_OVERSAMPLE = 10;
/** sqlite-vec refuses KNN queries with k above this. */
const MAX_KNN = 4096;
/**
 * Cost model for a filtered vector search, measured at 100k × 512 (µs). Exact cosine over the filtered chunks
 * costs EXACT_US a chunk; the coarse pass costs SCAN_US per 1000 vectors plus TOPK_US per candidate per 1000
 * vectors (sqlite-vec's top-k is linear in k). To keep its recall under a filter that passes a share f of the
 * chunks, the coarse pass needs k × oversample / f candidates; whichever plan is cheaper runs.
 */
const EXACT_US = 2;
const SCAN_US = 25;
const TOPK_US = 0.6;
/** Counting the filtered chunks stops here: beyond it exact search is never the cheaper plan. */
const COUNT_CAP = 20_000;
/**
 * Rows bm25 may score for one query. An OR query with a common word matches most chunks, and scoring plus
 * sorting costs ~0.8 µs a row; the most common words are left out of the match (rarest kept first) as long as
 * the rest find enough rows. Such words carry almost no bm25 weight, so the ranking barely changes.
 */
const MATCH_BUDGET = 5000;
/** Hits one call may ask for. */
export const MAX_K = 200;
const SNIPPET_CHARS = 200;

export interface SearchOptions {
  /** Overrides DEFAULT_OVERSAMPLE (the bench sweeps it). */
  oversample?: number;
  /** Overrides DEFAULT_RANKING (the retrieval bench compares settings). */
  ranking?: Ranking;
}

interface FilterSql {
  where: string;
  params: Record<string, unknown>;
  /** Filters the caller chose (beyond user, liveness and sensitivity): worth counting what survives first. */
  selective: boolean;
}

/**
 * Search the index. `queryVector` is the query's embedding from the index's model, or null when none is
 * available: then hybrid returns the bm25 hits and vector returns none (the caller says why). See
 * SearchHit.score for what the score means in each mode.
 */
export function search(db: Database, req: SearchRequest, queryVector: Float32Array | null, opts: SearchOptions = {}): SearchHit[] {
  // One read transaction: every statement below sees the same snapshot, whatever the writer commits meanwhile.
  return db.transaction(() => searchInSnapshot(db, req, queryVector, opts))();
}

function searchInSnapshot(db: Database, req: SearchRequest, queryVector: Float32Array | null, opts: SearchOptions): SearchHit[] {
  if (!Number.isInteger(req.k) || req.k < 0) throw new Error(`k must be a non-negative integer, got ${req.k}`);
  const k = Math.min(req.k, MAX_K);
  if (k === 0) return [];
  const dim = vectorDim(db);
  const useVector = queryVector !== null && dim !== null && req.mode !== 'bm25';
  if (useVector && queryVector.length !== dim) {
    throw new Error(`query vector has ${queryVector.length} floats, the index holds vectors of ${dim}`);
  }
  const filters = filterSql(req.userId ?? 'default', req.filters ?? {});
  const r = opts.ranking ?? DEFAULT_RANKING;
  const fts: FtsQuery = req.mode === 'vector' ? { table: 'memory_fts', terms: [] } : ftsQuery(req.query);
  const byNote = req.group === 'note';
  const noteScored = byNote && r.note !== null;
  // chunks to rank: grouping folds a note's sections into one result, so a single list looks deeper (the vector
  // pass's candidate count stays k × oversample: only the cheap exact re-score sees more); hybrid lists have their
  // own depth, and without note-level scoring grouping only reads further down the fused list
  const want = byNote ? k * CHUNKS_PER_NOTE : k;
  const fusing = req.mode === 'hybrid' && useVector;
  const depthOf = (perK: number): number => (fusing ? Math.max(perK * k, MIN_DEPTH) : noteScored ? Math.max(want, perK * k) : want);

  const lists: ChunkList[] = [];
  let keyword: Keyword = { ranked: [], match: null, table: fts.table };
  // complete: each list is read deeper than it ranks, to score the other list's candidates too
  const completing = r.complete && noteScored && fusing;
  const deep: Ranked[][] = [];
  if (req.mode !== 'vector') {
    const depth = depthOf(r.depth.bm25);
    keyword = bm25List(db, fts, filters, completing ? Math.max(depth, COMPLETE_DEPTH) : depth, r);
    deep.push(keyword.ranked);
    lists.push({ kind: 'bm25', items: keyword.ranked.slice(0, depth), weight: 1 });
  }
  if (req.mode === 'vector' || fusing) {
    const oversample = opts.oversample ?? DEFAULT_OVERSAMPLE;
    const depth = depthOf(r.depth.vector);
    const vec = useVector ? vectorList(db, queryVector, filters, k, completing ? Math.max(depth, COMPLETE_DEPTH) : depth, oversample) : [];
    deep.push(vec);
    lists.push({ kind: 'vector', items: vec.slice(0, depth), weight: r.fusion.vector });
  }
  // one list keeps its own scores (cosine, normalised bm25); two are fused
  let ranked: Ranked[] = lists.length === 1 ? lists[0]!.items : fuseLists(lists, r.fusion);
  const minScore = req.minScore;
  let groups: NoteGroup[];
  if (noteScored) {
    let chunkLists = lists;
    let docOf: Map<number, number> | undefined;
    if (completing) {
      const complete = completeLists(
        db,
        lists.map((l) => l.items),
        deep,
      );
      chunkLists = lists.map((l, i) => ({ ...l, items: complete.lists[i]! }));
      docOf = complete.docOf;
      ranked = fuseLists(chunkLists, r.fusion);
    }
    groups = rankNotes(db, { chunks: chunkLists, fused: ranked, ...(docOf && { docOf }) }, r.note!, r.fusion, k, minScore);
  } else {
    if (minScore !== undefined) ranked = ranked.filter((x) => x.score >= minScore);
    if (!byNote) return materialise(db, ranked.slice(0, k), keyword);
    groups = groupByNote(db, ranked, k);
  }
  const hits = new Map(
    materialise(
      db,
      groups.flatMap((g) => [g.best, ...g.also]),
      keyword,
    ).map((h) => [h.chunkId, h]),
  );
  return groups.flatMap((g) => {
    const best = hits.get(g.best.id);
    if (!best) return [];
    return [{ ...best, also: g.also.flatMap((r) => hits.get(r.id) ?? []) }];
  });
}

function filterSql(userId: string, f: SearchFilters): FilterSql {
  const where = ['d.user_id = @userId', 'd.deleted_at IS NULL'];
  const params: Record<string, unknown> = { userId };
  if (!f.includeSensitive) where.push('d.sensitive = 0');
  if (f.pathPrefix) {
    where.push('substr(d.source_id, 1, length(@pathPrefix)) = @pathPrefix');
    params['pathPrefix'] = f.pathPrefix;
  }
  if (f.sourceType) {
    where.push('d.source_type = @sourceType');
    params['sourceType'] = f.sourceType;
  }
  if (f.since !== undefined) {
    where.push('d.updated_at >= @since');
    params['since'] = f.since;
  }
  if (f.tags && f.tags.length > 0) {
    // Every wanted tag is on the document, itself or as the parent of a nested tag (project ⊇ project/alpha).
    where.push(`NOT EXISTS (SELECT 1 FROM json_each(@tags) want WHERE NOT EXISTS (
      SELECT 1 FROM json_each(d.tags) have
      WHERE lower(have.value) = want.value OR substr(lower(have.value), 1, length(want.value) + 1) = want.value || '/'))`);
    params['tags'] = JSON.stringify(f.tags.map((t) => t.replace(/^#/, '').toLowerCase()));
  }
  const selective = Boolean(f.pathPrefix || f.sourceType || f.since !== undefined || (f.tags && f.tags.length > 0));
  return { where: where.join(' AND '), params, selective };
}

interface Keyword {
  ranked: Ranked[];
  /** The MATCH expression that ran (for snippets), null when there was nothing to search for. */
  match: string | null;
  table: FtsQuery['table'];
}

/**
 * Chunks matching any of the query's terms, best bm25 first; score = b / (1 + b) with b = -bm25 (0..1).
 * Without caller filters FTS5 ranks alone and the few best rows are then checked against the default filters
 * (widening when too many fail); with them, the join filters while matching.
 */
function bm25List(db: Database, { table, terms }: FtsQuery, filters: FilterSql, limit: number, ranking: Ranking): Keyword {
  if (terms.length === 0) return { ranked: [], match: null, table };
  const match = withinBudget(db, table, terms, limit).join(' OR ');
  const weights = bm25Weights(ranking);
  const score = (r: { id: number; b: number }): Ranked => ({ id: r.id, score: -r.b / (1 - r.b) });
  if (filters.selective) {
    const rows = prepared(
      db,
      `SELECT ${table}.rowid AS id, bm25(${table}, ${weights}) AS b
       FROM ${table}
       CROSS JOIN memory_chunks c ON c.id = ${table}.rowid
       CROSS JOIN memory_documents d ON d.id = c.document_id
       WHERE ${table} MATCH @match AND ${filters.where}
       ORDER BY b LIMIT @limit`,
    ).all({ ...filters.params, match, limit }) as Array<{ id: number; b: number }>;
    return { ranked: rows.map(score), match, table };
  }
  for (let fetch = limit + 10; ; fetch *= 4) {
    const rows = prepared(
      db,
      `SELECT rowid AS id, bm25(${table}, ${weights}) AS b FROM ${table} WHERE ${table} MATCH ? ORDER BY b LIMIT ?`,
    ).all(match, fetch) as Array<{ id: number; b: number }>;
    const pass = new Set(
      passing(
        db,
        filters,
        rows.map((r) => r.id),
      ),
    );
    const kept = rows.filter((r) => pass.has(r.id));
    if (kept.length >= limit || rows.length < fetch) return { ranked: kept.slice(0, limit).map(score), match, table };
  }
}

/** The `content, heading, title` weights for FTS5's bm25(). */
function bm25Weights(ranking: Ranking): string {
  const { content, heading, title } = ranking.columns;
  return `${content}, ${heading}, ${title}`;
}

/** The terms to match: rarest first, adding more while the rows they match stay within MATCH_BUDGET. */
function withinBudget(db: Database, table: FtsQuery['table'], terms: string[], needed: number): string[] {
  if (terms.length === 1) return terms;
  const count = prepared(db, `SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ${MATCH_BUDGET + 1})`).pluck();
  const byRarity = terms.map((t) => ({ t, n: count.get(t) as number })).sort((a, b) => a.n - b.n);
  const kept: string[] = [];
  let rows = 0;
  for (const { t, n } of byRarity) {
    if (n === 0) continue;
    if (kept.length > 0 && rows >= needed && rows + n > MATCH_BUDGET) break;
    kept.push(t);
    rows += n;
  }
  return kept.length > 0 ? kept : terms;
}

/** Which of `ids` (chunk ids) belong to documents that pass the filters. */
function passing(db: Database, filters: FilterSql, ids: number[]): number[] {
  if (ids.length === 0) return [];
  return prepared(
    db,
    `SELECT c.id FROM json_each(@ids) j
     CROSS JOIN memory_chunks c ON c.id = j.value
     CROSS JOIN memory_documents d ON d.id = c.document_id
     WHERE ${filters.where}`,
  )
    .pluck()
    .all({ ...filters.params, ids: JSON.stringify(ids) }) as number[];
}

/**
 * The `depth` chunks nearest the query by cosine, filters applied. Coarse pass: hamming KNN over the bit
 * vectors for k × oversample candidates (more under a narrowing filter); then exact cosine on those that pass
 * the filters. When too few pass, the candidate set widens (×4). A filter that leaves few chunks is searched
 * exactly instead, when the cost model says that is cheaper.
 */
function vectorList(db: Database, q: Float32Array, filters: FilterSql, k: number, depth: number, oversample: number): Ranked[] {
  const qb = Buffer.from(q.buffer, q.byteOffset, q.byteLength);
  let candidates = Math.max(depth, Math.ceil(k * oversample));
  if (filters.selective) {
    const filtered = countFiltered(db, filters);
    const total = prepared(db, `SELECT count(*) FROM memory_vectors_rowids`).pluck().get() as number;
    if (filtered === 0 || total === 0) return [];
    const wanted = Math.ceil((candidates * total) / filtered);
    const coarseUs = (total / 1000) * (SCAN_US + TOPK_US * Math.min(wanted, MAX_KNN));
    if (filtered < COUNT_CAP && filtered * EXACT_US <= coarseUs) return exactFiltered(db, qb, filters, depth);
    candidates = wanted;
  }
  candidates = Math.min(MAX_KNN, candidates);
  for (;;) {
    const ids = prepared(db, `SELECT chunk_id FROM memory_vectors_bit WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`)
      .pluck()
      .all(qb, candidates) as number[];
    const rows = prepared(
      db,
      `SELECT c.id AS id, vec_distance_cosine(v.embedding, @q) AS dist
       FROM json_each(@ids) j
       CROSS JOIN memory_chunks c ON c.id = j.value
       CROSS JOIN memory_documents d ON d.id = c.document_id
       CROSS JOIN memory_vectors v ON v.chunk_id = c.id
       WHERE ${filters.where}
       ORDER BY dist LIMIT @limit`,
    ).all({ ...filters.params, q: qb, ids: JSON.stringify(ids), limit: depth }) as Array<{ id: number; dist: number }>;
    // Enough survived, or the coarse pass already returned every vector there is.
    if (rows.length >= depth || ids.length < candidates) return rows.map(toCosine);
    if (candidates >= MAX_KNN) return exactFiltered(db, qb, filters, depth);
    candidates = Math.min(MAX_KNN, candidates * 4);
  }
}

function countFiltered(db: Database, filters: FilterSql): number {
  return prepared(
    db,
    `SELECT count(*) FROM (SELECT 1 FROM memory_documents d JOIN memory_chunks c ON c.document_id = d.id
       WHERE ${filters.where} LIMIT ${COUNT_CAP})`,
  )
    .pluck()
    .get(filters.params) as number;
}

function exactFiltered(db: Database, qb: Buffer, filters: FilterSql, depth: number): Ranked[] {
  const rows = prepared(
    db,
    `SELECT c.id AS id, vec_distance_cosine(v.embedding, @q) AS dist
     FROM memory_documents d
     CROSS JOIN memory_chunks c ON c.document_id = d.id
     CROSS JOIN memory_vectors v ON v.chunk_id = c.id
     WHERE ${filters.where}
     ORDER BY dist LIMIT @limit`,
  ).all({ ...filters.params, q: qb, limit: depth }) as Array<{ id: number; dist: number }>;
  return rows.map(toCosine);
}

function toCosine(r: { id: number; dist: number }): Ranked {
  return { id: r.id, score: 1 - r.dist };
}

interface HitRow {
  id: number;
  source_id: string;
  source_type: string;
  title: string;
  heading_path: string;
  start_line: number;
  end_line: number;
  content: string;
  sensitive: number;
}

function materialise(db: Database, ranked: Ranked[], keyword: Keyword): SearchHit[] {
  if (ranked.length === 0) return [];
  const ids = JSON.stringify(ranked.map((r) => r.id));
  const rows = prepared(
    db,
    `SELECT c.id, d.source_id, d.source_type, coalesce(d.title, d.source_id) AS title, c.heading_path, c.start_line, c.end_line, c.content, d.sensitive
     FROM json_each(?) j CROSS JOIN memory_chunks c ON c.id = j.value CROSS JOIN memory_documents d ON d.id = c.document_id`,
  ).all(ids) as HitRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const snippets = new Map<number, string>();
  const keywordIds = new Set(keyword.ranked.map((r) => r.id));
  const kwIds = ranked.filter((r) => keywordIds.has(r.id)).map((r) => r.id);
  // The bigram table holds character pairs, not readable text: its hits keep the start of the chunk instead.
  if (keyword.match !== null && kwIds.length > 0 && keyword.table === 'memory_fts') {
    const snip = prepared(
      db,
      `SELECT rowid AS id, snippet(memory_fts, 0, '', '', '…', 32) AS s FROM memory_fts
       WHERE memory_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
    ).all(keyword.match, JSON.stringify(kwIds)) as Array<{ id: number; s: string }>;
    for (const r of snip) snippets.set(r.id, r.s);
  }
  const hits: SearchHit[] = [];
  for (const r of ranked) {
    const row = byId.get(r.id);
    if (!row) continue; // cannot happen inside one read transaction; kept so a bug drops a hit, not the search
    hits.push({
      chunkId: row.id,
      path: row.source_id,
      sourceType: row.source_type,
      title: row.title,
      headingPath: JSON.parse(row.heading_path) as string[],
      startLine: row.start_line,
      endLine: row.end_line,
      snippet: tidy(snippets.get(row.id) ?? row.content),
      score: r.score,
      sensitive: row.sensitive !== 0,
    });
  }
  return hits;
}

/** One line of at most ~SNIPPET_CHARS, cut at a word boundary. */
function tidy(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_CHARS + 20) return flat;
  const cut = flat.lastIndexOf(' ', SNIPPET_CHARS);
  return `${flat.slice(0, cut > SNIPPET_CHARS / 2 ? cut : SNIPPET_CHARS)}…`;
}
