// Hybrid search over the index: BM25 (FTS5) and vector KNN (vector-search.ts), fused as ranking.ts says.
import type { Database } from 'better-sqlite3';
import { SOURCE_VAULT } from '../../messages/common.js';
import type { SearchHit, SearchRequest } from '../../messages/store.js';
import { documentMetadata } from '../store-writer/index-reader.js';
import { vectorDim } from '../store-writer/schema.js';
import { prepared } from '../store-writer/statement-cache.js';
import { feedbackVector, seedChunks } from './feedback.js';
import { type ChunkFacts, chunkFacts, type FilterSql, filterSql, passing } from './filter-sql.js';
import { type FtsQuery, ftsQuery } from './fts-query.js';
import { fuseLists } from './fusion.js';
import { snapshotVersion } from './snapshot-version.js';
import { keywordSnippets } from './snippets.js';
import { CHUNKS_PER_NOTE, groupByNote, type NoteGroup, type Ranked } from './group-by-note.js';
import { COMPLETE_DEPTH, completeLists } from './note-rescore.js';
import { matchExpression, type Needed } from './match-budget.js';
import { type ChunkList, rankNotes } from './note-ranking.js';
import { DEFAULT_RANKING, MIN_DEPTH, type Ranking } from './ranking.js';
import { DEFAULT_OVERSAMPLE, vectorList } from './vector-search.js';
import { loadedCoarseIndex } from './coarse-index.js';

export { DEFAULT_OVERSAMPLE };
/** Hits one call may ask for. */
export const MAX_K = 200;
const SNIPPET_CHARS = 200;

export interface SearchOptions {
  /** Overrides DEFAULT_OVERSAMPLE (the bench sweeps it). */
  oversample?: number;
  /** Overrides DEFAULT_RANKING (the retrieval bench compares settings). */
  ranking?: Ranking;
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

/**
 * search() while the query is still being embedded (in another thread): a hybrid search reads its keyword list
 * meanwhile, in a snapshot of its own, and the rest once the vector is there. When the index changed in between, the
 * second snapshot re-checks those keyword hits against the filters, so a chunk deleted, or a note renamed out of a
 * folder filter or made sensitive in between, is not answered.
 */
export async function searchWhileEmbedding(
  db: Database,
  req: SearchRequest,
  queryVector: Promise<Float32Array | null>,
  opts: SearchOptions = {},
): Promise<SearchHit[]> {
  // the keyword list a hybrid search reads when its vector arrives (if it does not, the list is read again)
  const p = req.mode === 'hybrid' && req.k > 0 ? plan(req, opts, true) : null;
  const early = p
    ? db.transaction((): EarlyKeyword => {
        const facts = chunkFacts(knownDocs(db));
        return {
          limit: p.bm25.read,
          keyword: keywordList(db, p.fts, { filters: p.filters, depth: p.bm25, ranking: p.ranking, budget: req.matchBudget, facts }),
          version: snapshotVersion(db),
          facts,
        };
      })()
    : undefined;
  const qv = await queryVector;
  return db.transaction(() => searchInSnapshot(db, req, qv, opts, early))();
}

/** What a search reads before any vector: its filters, keyword terms and how deep each list goes. */
interface Plan {
  k: number;
  filters: FilterSql;
  fts: FtsQuery;
  ranking: Ranking;
  byNote: boolean;
  noteScored: boolean;
  /** two lists are fused (hybrid with a query vector) */
  fusing: boolean;
  /** each list is read deeper than it ranks, to score the other list's candidates too */
  completing: boolean;
  /** chunks the keyword list ranks, and how many it reads */
  bm25: Needed;
  /** chunks the vector list ranks, and how many it reads */
  vectorDepth: number;
  vectorLimit: number;
}

/**
 * Grouped by note, a search whose lists were read to their depth and still held fewer than k notes (one note's many
 * sections filled them) reads them again this many times deeper, up to MAX_WIDEN times the first depth.
 */
const WIDEN_STEP = 4;
const MAX_WIDEN = 64;

function plan(req: SearchRequest, opts: SearchOptions, useVector: boolean): Plan {
  if (!Number.isInteger(req.k) || req.k < 0) throw new Error(`k must be a non-negative integer, got ${req.k}`);
  const k = Math.min(req.k, MAX_K);
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
  const completing = r.complete && noteScored && fusing;
  const limitOf = (depth: number): number => (completing ? Math.max(depth, COMPLETE_DEPTH) : depth);
  const bm25Depth = depthOf(r.depth.bm25);
  const vectorDepth = depthOf(r.depth.vector);
  return {
    k,
    filters,
    fts,
    ranking: r,
    byNote,
    noteScored,
    fusing,
    completing,
    bm25: { rank: bm25Depth, read: limitOf(bm25Depth) },
    vectorDepth,
    vectorLimit: limitOf(vectorDepth),
  };
}

/** A keyword list read before the vector arrived (searchWhileEmbedding), for `limit` chunks. */
interface EarlyKeyword {
  limit: number;
  keyword: Keyword;
  /** snapshotVersion() of the snapshot it was read in: the same in the next one, its hits need no second check */
  version: string;
  /** what it learned of its chunks (their documents, the filters' verdicts), still true in a snapshot of that version */
  facts: ChunkFacts;
}

function searchInSnapshot(
  db: Database,
  req: SearchRequest,
  queryVector: Float32Array | null,
  opts: SearchOptions,
  early?: EarlyKeyword,
): SearchHit[] {
  const dim = vectorDim(db);
  const useVector = queryVector !== null && dim !== null && req.mode !== 'bm25';
  if (useVector && queryVector.length !== dim) {
    throw new Error(`query vector has ${queryVector.length} floats, the index holds vectors of ${dim}`);
  }
  const first = plan(req, opts, useVector);
  let match: string | undefined;
  // the notes found so far, in their order: a deeper read only adds notes after them (it could score a note's
  // further sections and so reorder, but the first answers stay as a shallower search gave them)
  const found: NoteGroup[] = [];
  const seen = new Set<number>();
  for (let widen = 1; ; widen *= WIDEN_STEP) {
    const out = rankInSnapshot(db, req, useVector ? queryVector : null, opts, deeper(first, widen), widen === 1 ? early : match);
    if ('chunks' in out) return materialise(db, out.chunks, out.keyword);
    for (const g of out.groups) {
      if (seen.has(g.doc) || found.length >= first.k) continue;
      seen.add(g.doc);
      found.push(g);
    }
    if (!out.short || found.length >= first.k || widen >= MAX_WIDEN) return materialiseGroups(db, found, out.keyword);
    match = out.keyword.match ?? undefined;
  }
}

/** `p` with every list read `widen` times deeper. */
function deeper(p: Plan, widen: number): Plan {
  if (widen === 1) return p;
  const completed = (depth: number): number => (p.completing ? Math.max(depth, COMPLETE_DEPTH) : depth);
  const bm25 = p.bm25.rank * widen;
  const vector = p.vectorDepth * widen;
  return { ...p, bm25: { rank: bm25, read: completed(bm25) }, vectorDepth: vector, vectorLimit: completed(vector) };
}

type Answer =
  | { keyword: Keyword; chunks: Ranked[] }
  /** short: fewer than k notes while a list came back as deep as it was read (more notes may lie below) */
  | { keyword: Keyword; groups: NoteGroup[]; short: boolean };

function rankInSnapshot(
  db: Database,
  req: SearchRequest,
  queryVector: Float32Array | null,
  opts: SearchOptions,
  p: Plan,
  /** the keyword list read while the query was embedded, or the match expression of a shallower read (widening) */
  prior?: EarlyKeyword | string,
): Answer {
  const early = typeof prior === 'string' ? undefined : prior;
  const { k, filters, fts, ranking: r, byNote, noteScored, fusing, completing, ...depths } = p;
  if (k === 0) return { keyword: { ranked: [], match: null, table: fts.table }, chunks: [] };

  const lists: ChunkList[] = [];
  let keyword: Keyword = { ranked: [], match: null, table: fts.table };
  const deep: Ranked[][] = [];
  /** how deep each of `deep` was read: one that came back that long may hold more notes further down */
  const readTo: number[] = [];
  // the keyword list read early is of this snapshot when nothing was written since: then so is all it learned
  const unchanged = early !== undefined && early.version === snapshotVersion(db);
  /** each chunk's document and filters looked up so far (every list, the feedback seeds, the complete scores) */
  const facts = unchanged ? early.facts : chunkFacts(knownDocs(db));
  const docs = facts.doc;
  if (req.mode !== 'vector') {
    keyword =
      early?.limit === depths.bm25.read
        ? { ...early.keyword, ranked: unchanged ? early.keyword.ranked : recheck(db, filters, early.keyword.ranked, facts) }
        : keywordList(
            db,
            fts,
            { filters, depth: depths.bm25, ranking: r, budget: req.matchBudget, facts },
            typeof prior === 'string' ? prior : undefined,
          );
    deep.push(keyword.ranked);
    readTo.push(depths.bm25.read);
    lists.push({ kind: 'bm25', items: keyword.ranked.slice(0, depths.bm25.rank), weight: 1 });
  }
  const oversample = opts.oversample ?? DEFAULT_OVERSAMPLE;
  // the chunks a vector list ranks get their exact cosine; those read deeper only for the complete scores, the estimate
  const vectorDepth = { read: depths.vectorLimit, exact: depths.vectorDepth };
  if (req.mode === 'vector' || fusing) {
    const vec = queryVector ? vectorList(db, queryVector, filters, k, vectorDepth, oversample, facts) : [];
    deep.push(vec);
    readTo.push(depths.vectorLimit);
    lists.push({ kind: 'vector', items: vec.slice(0, depths.vectorDepth), weight: r.fusion.vector });
  }
  if (fusing && r.feedback && lists.length === 2) {
    // a third list, for the query moved toward the first pass's best notes (feedback.ts)
    const seeds = seedChunks(db, fuseLists(lists, r.fusion), r.feedback.k, docs);
    const moved = feedbackVector(db, queryVector!, seeds, r.feedback.beta);
    if (moved !== queryVector) {
      const fb = vectorList(db, moved, filters, k, vectorDepth, r.feedback.oversample ?? oversample, facts);
      deep.push(fb);
      readTo.push(depths.vectorLimit);
      lists.push({ kind: 'vector', items: fb.slice(0, depths.vectorDepth), weight: r.feedback.weight });
    }
  }
  // one list keeps its own scores (cosine, normalised bm25); two are fused
  let ranked: Ranked[] = lists.length === 1 ? lists[0]!.items : fuseLists(lists, r.fusion);
  const minScore = req.minScore;
  let groups: NoteGroup[];
  if (noteScored) {
    let chunkLists = lists;
    if (completing) {
      const complete = completeLists(
        db,
        lists.map((l) => l.items),
        deep,
        docs,
      );
      chunkLists = lists.map((l, i) => ({ ...l, items: complete[i]! }));
      ranked = fuseLists(chunkLists, r.fusion);
    }
    groups = rankNotes(db, { chunks: chunkLists, fused: ranked, docOf: docs }, r.note!, r.fusion, k, minScore);
  } else {
    if (minScore !== undefined) ranked = ranked.filter((x) => x.score >= minScore);
    if (!byNote) return { keyword, chunks: ranked.slice(0, k) };
    groups = groupByNote(db, ranked, k, docs);
  }
  const full = deep.some((l, i) => l.length >= readTo[i]!);
  return { keyword, groups, short: groups.length < k && full };
}

/** Each note's best hit, with its other sections' hits in `also`. */
function materialiseGroups(db: Database, groups: NoteGroup[], keyword: Keyword): SearchHit[] {
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

/** Chunks' documents as the coarse index holds them in this snapshot, when it is loaded (none without vectors). */
function knownDocs(db: Database): (id: number) => number | undefined {
  const c = loadedCoarseIndex(db);
  return c ? (id) => c.docOf(id) : () => undefined;
}

interface Keyword {
  ranked: Ranked[];
  /** The MATCH expression that ran (for snippets), null when there was nothing to search for. */
  match: string | null;
  table: FtsQuery['table'];
}

/**
 * The keyword list: bm25 over the table the query's script needs. A query mixing Chinese, Japanese, Korean, Thai…
 * with other words also searches those words in memory_fts, and the two lists are fused as the ranking fuses lists
 * (a chunk matching both kinds ranks first), so a note holding only the other words is found too.
 */
function keywordList(db: Database, fts: FtsQuery, read: KeywordRead, sameMatch?: string): Keyword {
  if (!fts.spaced) return bm25List(db, fts, read, sameMatch);
  // two expressions: a deeper read matches them afresh (sameMatch is one of them, not both)
  const unspaced = bm25List(db, fts, read);
  const spaced = bm25List(db, { table: 'memory_fts', terms: fts.spaced }, read);
  const ranked = fuseLists(
    [
      { items: unspaced.ranked, weight: 1 },
      { items: spaced.ranked, weight: 1 },
    ],
    read.ranking.fusion,
  ).slice(0, read.depth.read);
  // snippets come from the spaced words' match (the pair table holds pairs, not readable text)
  return { ranked, match: spaced.match, table: 'memory_fts' };
}

/** How a keyword list is read: its filters, depth, the ranking's column weights, the match budget. */
interface KeywordRead {
  filters: FilterSql;
  depth: Needed;
  ranking: Ranking;
  budget: number | undefined;
  facts?: ChunkFacts;
}

/**
 * Up to `depth.read` chunks matching the query's terms (any of them, or past the match budget any of the rarer ones:
 * matchExpression, told how many rows the list ranks and reads), best bm25 first; score = b / (1 + b) with
 * b = -bm25 (0..1).
 * Without caller filters FTS5 ranks alone and the few best rows are then checked against the default filters
 * (widening when too many fail); with them, the join filters while matching.
 */
function bm25List(
  db: Database,
  { table, terms }: FtsQuery,
  { filters, depth, ranking, budget, facts }: KeywordRead,
  /** the expression a shallower read of this search matched: reading deeper extends its list, never reorders it */
  sameMatch?: string,
): Keyword {
  if (terms.length === 0) return { ranked: [], match: null, table };
  const limit = depth.read;
  const match = sameMatch ?? matchExpression(db, table, terms, depth, budget);
  const weights = bm25Weights(ranking);
  // rows come as [id, b] arrays (raw): an object a row costs ~1.5 µs more
  const score = ([id, b]: Row): Ranked => ({ id, score: -b / (1 - b) });
  if (filters.selective) {
    const rows = prepared(
      db,
      `SELECT ${table}.rowid AS id, bm25(${table}, ${weights}) AS b
       FROM ${table}
       CROSS JOIN memory_chunks c ON c.id = ${table}.rowid
       CROSS JOIN memory_documents d ON d.id = c.document_id
       WHERE ${table} MATCH @match AND ${filters.where}
       ORDER BY b LIMIT @limit`,
    )
      .raw()
      .all({ ...filters.params, match, limit }) as Row[];
    return { ranked: rows.map(score), match, table };
  }
  for (let fetch = limit + 10; ; fetch *= 4) {
    const rows = prepared(db, `SELECT rowid AS id, bm25(${table}, ${weights}) AS b FROM ${table} WHERE ${table} MATCH ? ORDER BY b LIMIT ?`)
      .raw()
      .all(match, fetch) as Row[];
    const pass = new Set(
      passing(
        db,
        filters,
        rows.map(([id]) => id),
        facts,
      ),
    );
    const kept = rows.filter(([id]) => pass.has(id));
    if (kept.length >= limit || rows.length < fetch) return { ranked: kept.slice(0, limit).map(score), match, table };
  }
}

/** A keyword row: the chunk and FTS5's bm25 (negative, lower is better). */
type Row = [id: number, b: number];

/** The `content, heading, title` weights for FTS5's bm25(). */
function bm25Weights(ranking: Ranking): string {
  const { content, heading, title } = ranking.columns;
  return `${content}, ${heading}, ${title}`;
}

/** The hits of a keyword list read in an earlier snapshot that still pass the filters in this one. */
function recheck(db: Database, filters: FilterSql, ranked: Ranked[], facts: ChunkFacts): Ranked[] {
  const pass = new Set(
    passing(
      db,
      filters,
      ranked.map((r) => r.id),
      facts,
    ),
  );
  return ranked.filter((r) => pass.has(r.id));
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
  metadata: string | null;
}

function materialise(db: Database, ranked: Ranked[], keyword: Keyword): SearchHit[] {
  if (ranked.length === 0) return [];
  const ids = JSON.stringify(ranked.map((r) => r.id));
  const rows = prepared(
    db,
    `SELECT c.id, d.source_id, d.source_type, coalesce(d.title, d.source_id) AS title, c.heading_path, c.start_line, c.end_line, c.content, d.sensitive,
       CASE WHEN d.source_type = @vault THEN NULL ELSE d.metadata END AS metadata
     FROM json_each(@ids) j CROSS JOIN memory_chunks c ON c.id = j.value CROSS JOIN memory_documents d ON d.id = c.document_id`,
  ).all({ ids, vault: SOURCE_VAULT }) as HitRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keywordIds = new Set(keyword.ranked.map((r) => r.id));
  const kwIds = ranked.filter((r) => keywordIds.has(r.id)).map((r) => r.id);
  // The bigram table holds character pairs, not readable text: its hits keep the start of the chunk instead.
  const snippets =
    keyword.match !== null && keyword.table === 'memory_fts' ? keywordSnippets(db, keyword.match, kwIds) : new Map<number, string>();
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
      ...(row.source_type === SOURCE_VAULT ? {} : { metadata: documentMetadata(row.metadata) }),
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
