// Probe for the note-level vector idea (issue 18): embeds each note's summary (chunker/summary.ts) with the real
// model into memory_note_vectors of the retrieval bench's cached index, so that bench can weigh that list in.
//
// Run: node dist/bench/retrieval-quality.js --reuse --cache DIR (once, to build), then
//      node dist/bench/note-vector-probe.js DIR/retrieval-<key>, then the bench with --variant '…{"noteVector":0.5}'.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { noteTitle, readFrontmatter } from '../actors/chunker/frontmatter.js';
import { parseBlocks } from '../actors/chunker/markdown.js';
import { noteSummary } from '../actors/chunker/summary.js';
import { createUseLiteProvider } from '../actors/embedder/use-lite/provider.js';
import { openIndex } from '../actors/store-writer/schema.js';

const base = process.argv[2];
if (!base) throw new Error('usage: note-vector-probe.js <cached bench dir holding vault/ and data/>');
const db = openIndex(path.join(base, 'data', 'index.sqlite'), { readonly: false });
const provider = await createUseLiteProvider({ cacheDir: path.join(base, 'data', 'models') });
db.exec(`DROP TABLE IF EXISTS memory_note_vectors;
  CREATE VIRTUAL TABLE memory_note_vectors USING vec0(document_id INTEGER PRIMARY KEY, embedding float[${provider.info.dim}] distance_metric=cosine)`);
const docs = db.prepare(`SELECT id, source_id FROM memory_documents WHERE deleted_at IS NULL`).all() as Array<{
  id: number;
  source_id: string;
}>;
const texts = docs.map((d) => {
  const text = readFileSync(path.join(base, 'vault', d.source_id), 'utf8');
  const lines = text.split('\n');
  const fm = readFrontmatter(lines);
  const body = fm.bodyStartLine === 0 ? text : '\n'.repeat(fm.bodyStartLine) + lines.slice(fm.bodyStartLine).join('\n');
  return noteSummary(noteTitle(fm.data, d.source_id), fm.data, parseBlocks(body));
});
const t0 = performance.now();
const insert = db.prepare(`INSERT INTO memory_note_vectors(document_id, embedding) VALUES (?, ?)`);
for (let i = 0; i < docs.length; i += 64) {
  const vecs = await provider.embed(texts.slice(i, i + 64));
  db.transaction(() => vecs.forEach((v, j) => insert.run(BigInt(docs[i + j]!.id), Buffer.from(v.buffer, v.byteOffset, v.byteLength))))();
}
const s = (performance.now() - t0) / 1000;
console.log(`embedded ${docs.length} note summaries in ${s.toFixed(1)} s (${(docs.length / s).toFixed(0)}/s, one thread)`);
db.close();
