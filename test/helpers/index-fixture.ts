// Test helpers for the index: a real SQLite file in a temp dir, an injected clock, chunk and vector builders.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { ModelInfo } from '../../messages/common.js';
import type { UpsertChunk, UpsertDocument } from '../../messages/store.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';

interface Teardown {
  teardown(fn: () => void): void;
}

export function testModel(dim: number): ModelInfo {
  return { provider: 'test', name: 'synthetic', version: '1', dim };
}

export interface Clock {
  now: () => number;
  advance(ms: number): void;
}

export function fakeClock(start = 1_700_000_000_000): Clock {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

export interface TestIndex {
  dir: string;
  file: string;
  db: Database;
  writer: IndexWriter;
  clock: Clock;
}

/** A fresh index file in a temp dir, with a writer; closed and removed when the test ends. */
export function tempIndex(t: Teardown, opts: { dim?: number | null; chunkerVersion?: string } = {}): TestIndex {
  const dir = mkdtempSync(join(tmpdir(), 'memvault-store-'));
  const file = join(dir, 'index.sqlite');
  const db = openIndex(file, { readonly: false });
  const clock = fakeClock();
  const dim = opts.dim === undefined ? 16 : opts.dim;
  const writer = new IndexWriter(db, {
    model: dim === null ? null : testModel(dim),
    chunkerVersion: opts.chunkerVersion ?? 'test-1',
    now: clock.now,
  });
  t.teardown(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, file, db, writer, clock };
}

export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function chunk(
  seq: number,
  content: string,
  opts: { headingPath?: string[]; vector?: Float32Array | null; line?: number } = {},
): UpsertChunk {
  const headingPath = opts.headingPath ?? [];
  const line = opts.line ?? seq * 10 + 1;
  return {
    seq,
    content,
    headingPath,
    startLine: line,
    endLine: line + 5,
    tokenCount: content.split(/\s+/).length,
    hash: sha256(JSON.stringify(headingPath) + '\n' + content),
    vector: opts.vector ?? null,
  };
}

export function doc(sourceId: string, chunks: UpsertChunk[], over: Partial<UpsertDocument> = {}): UpsertDocument {
  return {
    sourceType: 'vault',
    sourceId,
    title: sourceId.replace(/\.md$/, '').split('/').pop() ?? sourceId,
    contentHash: sha256(sourceId + chunks.map((c) => c.hash).join()),
    mtimeMs: 1000,
    size: chunks.reduce((n, c) => n + c.content.length, 0),
    metadata: {},
    tags: [],
    sensitive: false,
    chunks,
    ...over,
  };
}

/** Deterministic PRNG (mulberry32), so synthetic data is the same on every run. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal sample (Box–Muller) from a uniform source. */
export function gaussian(r: () => number): number {
  let u = 0;
  while (u === 0) u = r();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

/** Scales `v` to unit length in place (a zero vector stays zero) and returns it. */
export function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i] = v[i]! / n;
  return v;
}

export function randomUnit(dim: number, r: () => number): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) v[i] = gaussian(r);
  return unit(v);
}

/** A unit vector near `center`: noise of `spread` per unit of the center's length. */
export function near(center: Float32Array, spread: number, r: () => number): Float32Array {
  const v = new Float32Array(center.length);
  const per = spread / Math.sqrt(center.length);
  for (let i = 0; i < v.length; i++) v[i] = center[i]! + per * gaussian(r);
  return unit(v);
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Every row that defines the index's state, for "same state" comparisons. */
export function snapshot(db: Database): unknown {
  const all = (sql: string): unknown[] => db.prepare(sql).all();
  const hasVectors = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'memory_vectors'`).get() !== undefined;
  return {
    documents: all(`SELECT * FROM memory_documents ORDER BY id`),
    chunks: all(`SELECT * FROM memory_chunks ORDER BY id`),
    fts: all(`SELECT rowid, content, heading, title FROM memory_fts ORDER BY rowid`),
    vectors: hasVectors ? all(`SELECT chunk_id, hex(embedding) AS e FROM memory_vectors ORDER BY chunk_id`) : [],
    bits: hasVectors ? all(`SELECT chunk_id, hex(embedding) AS e, hex(codes) AS c FROM memory_vectors_bit ORDER BY chunk_id`) : [],
    fileStatus: all(`SELECT * FROM file_status ORDER BY path`),
    meta: all(`SELECT * FROM meta WHERE key <> 'created_at' ORDER BY key`),
  };
}

/** A unit vector whose cosine with the unit vector `q` is exactly `c`; its other direction is drawn from `r`. */
export function vectorAtCosine(q: Float32Array, c: number, r: () => number): Float32Array {
  const dim = q.length;
  const u = randomUnit(dim, r);
  const d = dot(u, q);
  for (let i = 0; i < dim; i++) u[i] = u[i]! - d * q[i]!;
  unit(u);
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) v[i] = c * q[i]! + Math.sqrt(1 - c * c) * u[i]!;
  return v;
}
