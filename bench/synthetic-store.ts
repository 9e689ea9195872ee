// A store of any size for the search benches: real corpus text (tldr pages and Rust book paragraphs in varied copies)
// with synthetic clustered unit vectors (topic + subtopic + noise, so neighbours are near, like real text).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IndexWriter } from '../actors/store-writer/index-writer.js';
import { openIndex } from '../actors/store-writer/schema.js';
import type { ModelInfo } from '../messages/common.js';
import type { UpsertChunk } from '../messages/store.js';
import { CORPORA, gaussian, rng, unit } from './harness.js';

export const DIM = 512;
/**
 * Documents are stored as this source type, not 'vault': a daemon started on the store reconciles an empty vault and
 * leaves them alone.
 */
export const SOURCE_TYPE = 'bench';

function randomUnit(r: () => number): Float32Array {
  const v = new Float32Array(DIM);
  for (let i = 0; i < DIM; i++) v[i] = gaussian(r);
  return unit(v);
}

/** Vectors = topic + 0.8·subtopic + noise·random, normalised. ~50 chunks per subtopic at any size. */
export class ClusteredVectors {
  readonly #r: () => number;
  readonly #topics: Float32Array[];
  readonly #subs: Float32Array[];
  /** The same `n` and `seed` draw the same centres: queries near the data come from a second generator. */
  constructor(n: number, seed: number) {
    this.#r = rng(seed);
    const subs = Math.max(20, Math.round(n / 50));
    const topics = Math.max(5, Math.round(subs / 20));
    this.#topics = Array.from({ length: topics }, () => randomUnit(this.#r));
    this.#subs = Array.from({ length: subs }, () => randomUnit(this.#r));
  }
  next(noise = 0.8): Float32Array {
    const s = Math.floor(this.#r() * this.#subs.length);
    const topic = this.#topics[s % this.#topics.length]!;
    const sub = this.#subs[s]!;
    const v = new Float32Array(DIM);
    const perDim = noise / Math.sqrt(DIM); // noise vector of length ≈ noise
    for (let i = 0; i < DIM; i++) v[i] = topic[i]! + 0.8 * sub[i]! + perDim * gaussian(this.#r);
    return unit(v);
  }
}

export interface Para {
  file: string;
  text: string;
  headings: string[];
  line: number;
}

/** Paragraphs (20+ characters) of both corpora with their heading paths and first lines. */
export function loadParagraphs(): Para[] {
  const out: Para[] = [];
  for (const dir of ['tldr-common', 'rust-book']) {
    const root = path.join(CORPORA, dir);
    for (const f of readdirSync(root)
      .filter((x) => x.endsWith('.md'))
      .sort()) {
      const lines = readFileSync(path.join(root, f), 'utf8').split('\n');
      const headings: string[] = [];
      let buf: string[] = [];
      let start = 1;
      const flush = (end: number) => {
        const text = buf.join('\n').trim();
        if (text.length >= 20) out.push({ file: `${dir}/${f}`, text, headings: [...headings], line: start });
        buf = [];
        start = end + 1;
      };
      lines.forEach((l, i) => {
        const h = /^(#{1,6})\s+(.*)$/.exec(l);
        if (h) {
          flush(i + 1);
          headings.length = h[1]!.length - 1;
          headings.push(h[2]!.trim());
        } else if (l.trim() === '') flush(i + 1);
        else buf.push(l);
      });
      flush(lines.length);
    }
  }
  return out;
}

/** A variant of a paragraph for copy `c`: sentences rotated and a corpus word added, so copies differ. */
function vary(text: string, c: number, r: () => number, vocab: string[]): string {
  if (c === 0) return text;
  const sentences = text.split(/(?<=[.!?])\s+/);
  const rot = c % sentences.length;
  const word = vocab[Math.floor(r() * vocab.length)]!;
  return [...sentences.slice(rot), ...sentences.slice(0, rot)].join(' ') + ` ${word}`;
}

function sha(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/**
 * Writes `n` chunks into a new index at `file` through IndexWriter, as the store writer would: documents
 * `copy-<c>/<corpus>/<file>.md`, one chunk per paragraph, the vectors recorded as `model`'s (the use-lite model's
 * identity lets a daemon's hybrid search run on them as on its own).
 */
export function buildSyntheticStore(file: string, n: number, model: ModelInfo, paras: Para[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = openIndex(file, { readonly: false });
  const writer = new IndexWriter(db, { model, chunkerVersion: 'bench', now: Date.now });
  const vocab = [...new Set(paras.flatMap((p) => p.text.match(/[A-Za-z]{5,}/g) ?? []))];
  const vectors = new ClusteredVectors(n, 1);
  const r = rng(2);
  let made = 0;
  type Doc = { path: string; title: string; chunks: UpsertChunk[] };
  // One outer transaction per batch: the per-document transactions become savepoints, commits are fewer.
  const batch = db.transaction((docs: Doc[]) => {
    for (const d of docs) {
      writer.upsertDocument({
        sourceType: SOURCE_TYPE,
        sourceId: d.path,
        title: d.title,
        contentHash: sha(d.chunks.map((c) => c.hash).join()),
        mtimeMs: 0,
        size: 0,
        metadata: {},
        tags: [],
        sensitive: false,
        chunks: d.chunks,
      });
    }
  });
  for (let copy = 0; made < n; copy++) {
    let docs: Doc[] = [];
    let cur: Doc | null = null;
    for (const p of paras) {
      if (made >= n) break;
      const docPath = `copy-${copy}/${p.file}`;
      if (!cur || cur.path !== docPath) {
        if (cur) docs.push(cur);
        cur = { path: docPath, title: p.headings[0] ?? p.file, chunks: [] };
      }
      const content = vary(p.text, copy, r, vocab);
      cur.chunks.push({
        seq: cur.chunks.length,
        content,
        headingPath: p.headings,
        startLine: p.line,
        endLine: p.line + content.split('\n').length - 1,
        tokenCount: content.split(/\s+/).length,
        hash: sha(`${copy}\n${content}`),
        vector: vectors.next(),
      });
      made++;
      if (docs.length >= 200) {
        batch(docs);
        docs = [];
      }
    }
    if (cur) docs.push(cur);
    batch(docs);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
