// Pseudo-relevance feedback for hybrid search: the first pass's best notes are taken as relevant and the query
// vector is moved toward their chunks' vectors (Rocchio), so a further vector pass finds notes near the answers
// that the question's own wording (embedded by a small model) misses.
import type { Database } from 'better-sqlite3';
import { prepared } from '../store-writer/statement-cache.js';
import { documentsOf, type Ranked } from './group-by-note.js';

/** The best chunk of each of the first `k` distinct notes of `list` (best first); `docOf` as documentsOf's `known`. */
export function seedChunks(db: Database, list: Ranked[], k: number, docOf = new Map<number, number>()): Ranked[] {
  documentsOf(
    db,
    list.map((r) => r.id),
    docOf,
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
