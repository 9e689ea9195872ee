// Knowledge facts: (1) memory_facts' query (facts about one entity current at an instant) and memory_timeline at
// 100,000 facts, beside a point lookup of a document by path in the same index (the cheapest query there is);
// (2) what projecting facts adds to indexing the example vault: chunk + store every note with its facts, against the
// same without them (and without the fact parse, timed on its own), rounds interleaved in one run; and the same with
// recorded_at dated from git (the example vault as a repository: `git blame` of each note with facts new to the index).
//
// Run: npx tsc -p tsconfig.json && node dist/bench/facts-query.js [--facts 100000] [--queries 2000] [--rounds 15]
// Goals (issue 13): facts query p50 ≤ 5 ms at 100k facts; the projection adds ≤ 10 % to indexing the example vault.
// The indexing figure leaves out embedding (the bulk of real indexing time), so the ratio is an upper bound.
// Writes bench/results/facts-query.json.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inlineFacts } from '../actors/chunker/inline-fields.js';
import { inlineRegions } from '../actors/chunker/inline-text.js';
import { LineIndex } from '../actors/chunker/line-index.js';
import { inlineRanges, parseBlocks } from '../actors/chunker/markdown.js';
import { parseNote } from '../actors/chunker/parse-note.js';
import { factsAt, timeline } from '../actors/store-writer/facts-reader.js';
import { IndexReader } from '../actors/store-writer/index-reader.js';
import { IndexWriter } from '../actors/store-writer/index-writer.js';
import { openIndex } from '../actors/store-writer/schema.js';
import { GitDating } from '../actors/store-writer/recorded-at.js';
import { vaultPath, type FactDraft, type ParsedNote } from '../messages/common.js';
import type { TokenCounter } from '../messages/embedding.js';
import { intArg, machine, median, pct, personDoc, printTable, REPO, rng, writeResults } from './harness.js';

const FACTS = intArg('facts', 100_000);
const QUERIES = intArg('queries', 2000);
const ROUNDS = intArg('rounds', 15);
const PER_NOTE = 10;
const DAY = 86_400_000;
const SINGLE = new Set(['works_at', 'lives_in', 'has_role', 'has_status']);
const PREDICATES = ['works_at', 'lives_in', 'has_role', 'prefers', 'knows', 'speaks', 'owns', 'likes', 'visited', 'reads'];

/** One token per word or mark: the chunker's shape without loading a model. */
const tokens: TokenCounter = { maxTokens: 128, count: (t) => t.split(/\s+|(?=[^\p{L}\p{N}\s])/u).filter(Boolean).length };
const opts = { maxTokens: 128, overlapTokens: 16, maxBytes: 2_000_000 };

function time<T>(fn: () => T): [number, T] {
  const t0 = process.hrtime.bigint();
  const r = fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, r];
}

function bigIndex(dir: string): string {
  const file = path.join(dir, 'facts.sqlite');
  const db = openIndex(file, { readonly: false });
  let clock = Date.UTC(2024, 0, 1);
  const w = new IndexWriter(db, { model: null, chunkerVersion: 'bench', now: () => clock });
  const r = rng(13);
  const notes = Math.ceil(FACTS / PER_NOTE);
  w.inTransaction(() => {
    for (let n = 0; n < notes; n++) {
      clock += 60_000;
      const facts: FactDraft[] = PREDICATES.map((predicate, i) => {
        const from = r() < 0.5 ? Date.UTC(2020, 0, 1) + Math.floor(r() * 2000) * DAY : null;
        return {
          predicate,
          object: i % 3 === 0 ? `Company ${Math.floor(r() * 500)}` : `value ${Math.floor(r() * 10_000)} of ${predicate}`,
          objectLink: i % 3 === 0 ? `Company ${Math.floor(r() * 500)}` : null,
          validFrom: from,
          validUntil: from !== null && r() < 0.3 ? from + Math.floor(r() * 700) * DAY : null,
          temporary: false,
          confidence: null,
          line: 3 + i,
        };
      });
      w.upsertDocument(personDoc(n, facts));
    }
  });
  db.close();
  return file;
}

function queryBench(file: string): Record<string, number> {
  const db = openIndex(file, { readonly: true });
  const reader = new IndexReader(db);
  const r = rng(7);
  const notes = Math.ceil(FACTS / PER_NOTE);
  const facts: number[] = [];
  const tl: number[] = [];
  const point: number[] = [];
  for (let i = 0; i < QUERIES + 100; i++) {
    const n = Math.floor(r() * notes);
    const at = Date.UTC(2020, 0, 1) + Math.floor(r() * 2500) * DAY;
    const [a] = time(() => factsAt(db, { entity: `person ${n}`, at, singleValued: SINGLE }));
    const [b] = time(() => timeline(db, `Person ${n}`));
    const [c] = time(() => reader.document('vault', `People/Person ${n}.md`));
    if (i < 100) continue; // warm-up
    facts.push(a);
    tl.push(b);
    point.push(c);
  }
  const rows = db.prepare('SELECT count(*) FROM knowledge_facts').pluck().get() as number;
  db.close();
  return {
    rows,
    facts_p50_ms: median(facts),
    facts_p99_ms: pct(facts, 99),
    timeline_p50_ms: median(tl),
    timeline_p99_ms: pct(tl, 99),
    point_lookup_p50_ms: median(point),
  };
}

function exampleNotes(): Array<{ rel: string; bytes: Buffer }> {
  const root = path.join(REPO, 'examples', 'vault');
  const out: Array<{ rel: string; bytes: Buffer }> = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else if (name.endsWith('.md')) out.push({ rel: path.relative(root, abs).split(path.sep).join('/'), bytes: readFileSync(abs) });
    }
  };
  walk(root);
  return out;
}

/** The index document of one parsed vault note, without vectors (and with its facts when `withFacts`). */
function noteDoc(rel: string, bytes: Buffer, n: ParsedNote, withFacts: boolean): Parameters<IndexWriter['upsertDocument']>[0] {
  return {
    sourceType: 'vault',
    sourceId: rel,
    title: n.title,
    contentHash: n.contentHash,
    mtimeMs: 1,
    size: bytes.length,
    metadata: { frontmatter: n.frontmatter, links: n.links },
    tags: n.tags,
    sensitive: n.sensitive,
    chunks: n.chunks.map((c) => ({ ...c, vector: null })),
    ...(withFacts ? { facts: n.facts } : {}),
  };
}

/** Chunk and store every example note into a fresh index, with or without facts; ms. */
function indexVault(dir: string, notes: Array<{ rel: string; bytes: Buffer }>, withFacts: boolean, round: number): number {
  const file = path.join(dir, `vault-${round}-${withFacts}.sqlite`);
  const db = openIndex(file, { readonly: false });
  const w = new IndexWriter(db, { model: null, chunkerVersion: 'bench', now: Date.now });
  const [ms] = time(() => {
    for (const { rel, bytes } of notes) {
      const r = parseNote(vaultPath(rel), bytes, tokens, opts);
      if (!r.ok) continue;
      const n = r.note;
      w.upsertDocument(noteDoc(rel, bytes, n, withFacts));
    }
  });
  db.close();
  return ms;
}

/** As indexVault with facts, each note's new facts first dated from `repo`'s git history (as the store writer does); ms. */
async function indexVaultDated(
  dir: string,
  repo: string,
  notes: Array<{ rel: string; bytes: Buffer }>,
  round: number,
): Promise<{ ms: number; logMs: number }> {
  const file = path.join(dir, `vault-${round}-dated.sqlite`);
  const db = openIndex(file, { readonly: false });
  const w = new IndexWriter(db, { model: null, chunkerVersion: 'bench', now: Date.now });
  // the log, read once before the first note with new facts (timed on its own)
  const dating = new GitDating(repo);
  const l0 = process.hrtime.bigint();
  await dating.prefetch();
  const logMs = Number(process.hrtime.bigint() - l0) / 1e6;
  const t0 = process.hrtime.bigint();
  for (const { rel, bytes } of notes) {
    const r = parseNote(vaultPath(rel), bytes, tokens, opts);
    if (!r.ok) continue;
    const n = r.note;
    if (n.facts.length) await dating.stamp(db, 'default', rel, n.facts, n.contentHash);
    w.upsertDocument(noteDoc(rel, bytes, n, true));
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  db.close();
  return { ms, logMs };
}

/** The example vault as a git repository with one commit (the dated series blames it). */
function exampleRepo(dir: string): string {
  const repo = path.join(dir, 'repo');
  cpSync(path.join(REPO, 'examples', 'vault'), repo, { recursive: true });
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const g = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, stdio: 'ignore' });
  g('init', '-q');
  g('add', '-A');
  g('-c', 'user.name=bench', '-c', 'user.email=bench@example.org', 'commit', '-q', '-m', 'example vault');
  return repo;
}

/** The fact parse alone over every note (it runs inside parseNote either way). */
function factParse(notes: Array<{ rel: string; bytes: Buffer }>): { ms: number; facts: number } {
  const prepared = notes.map(({ bytes }) => {
    const text = bytes.toString('utf8');
    const lines = new LineIndex(text);
    return { regions: inlineRegions(text, lines, inlineRanges(parseBlocks(text))), lines };
  });
  let facts = 0;
  const [ms] = time(() => {
    for (const p of prepared) facts += inlineFacts(p.regions, p.lines).length;
  });
  return { ms, facts };
}

const dir = mkdtempSync(path.join(tmpdir(), 'memvault-facts-bench-'));
try {
  const [buildMs, file] = time(() => bigIndex(dir));
  const q = queryBench(file);
  const notes = exampleNotes();
  const repo = exampleRepo(dir);
  const dated: number[] = [];
  const logRead: number[] = [];
  const withF: number[] = [];
  const without: number[] = [];
  const parse: number[] = [];
  let parsed = 0;
  for (let i = 0; i < ROUNDS + 2; i++) {
    const c = await indexVaultDated(dir, repo, notes, i);
    const a = indexVault(dir, notes, true, i);
    const b = indexVault(dir, notes, false, i);
    const p = factParse(notes);
    parsed = p.facts;
    if (i < 2) continue; // warm-up
    withF.push(a);
    dated.push(c.ms);
    logRead.push(c.logMs);
    without.push(b);
    parse.push(p.ms);
  }
  const base = median(without) - median(parse);
  const added = (median(withF) - base) / base;
  const addedDated = (median(dated) - base) / base;
  console.log(`facts-query on ${machine().cpu} (${machine().cpus} cpus, load ${machine().loadavg1m.toFixed(1)})\n`);
  printTable(
    ['query', `p50 ms`, 'p99 ms'],
    [
      [`memory_facts (entity, at) over ${q.rows!.toLocaleString()} facts`, q.facts_p50_ms!.toFixed(3), q.facts_p99_ms!.toFixed(3)],
      ['memory_timeline (entity)', q.timeline_p50_ms!.toFixed(3), q.timeline_p99_ms!.toFixed(3)],
      ['reference: one document by path', q.point_lookup_p50_ms!.toFixed(3), ''],
    ],
  );
  console.log('');
  printTable(
    ['indexing the example vault (no embedding)', 'median ms'],
    [
      [`with facts (${notes.length} notes, ${parsed} facts)`, median(withF).toFixed(2)],
      ['without facts, fact parse included', median(without).toFixed(2)],
      ['the fact parse alone', median(parse).toFixed(3)],
      ['projection adds', `${(added * 100).toFixed(1)} %`],
      ['with facts dated from git (a repository of one commit)', median(dated).toFixed(2)],
      ['projection + git dating adds', `${(addedDated * 100).toFixed(1)} %`],
      ['the git log read once at start, beside the first scan', median(logRead).toFixed(2)],
    ],
  );
  const out = writeResults('facts-query', {
    machine: machine(),
    build_ms: buildMs,
    query: q,
    indexing: {
      notes: notes.length,
      facts: parsed,
      rounds: ROUNDS,
      with_facts_ms: median(withF),
      without_facts_ms: median(without),
      fact_parse_ms: median(parse),
      added_fraction: added,
      dated_ms: median(dated),
      added_fraction_dated: addedDated,
      git_log_read_ms: median(logRead),
    },
  });
  console.log(`\nwrote ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
