// tldr pages (the shared corpus) indexed as the daemon would: parsed by the real chunker, embedded by the given model,
// written by the real IndexWriter.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseNote } from '../../actors/chunker/parse-note.js';
import type { IndexWriter } from '../../actors/store-writer/index-writer.js';
import type { EmbeddingProvider } from '../../messages/embedding.js';
import { vaultPath } from '../../messages/common.js';
import { corpusDir } from './corpora.js';

/** Indexes `<page>.md` of tldr-common for every page; throws naming a page the chunker refuses. */
export async function indexTldrPages(writer: IndexWriter, model: EmbeddingProvider, pages: readonly string[]): Promise<void> {
  for (const page of pages) {
    const file = `${page}.md`;
    const parsed = parseNote(vaultPath(file), readFileSync(path.join(corpusDir('tldr-common'), file)), model.tokens, {
      maxTokens: model.tokens.maxTokens,
      overlapTokens: 16,
      maxBytes: 2_000_000,
    });
    if (!parsed.ok) throw new Error(`${file}: ${parsed.message}`);
    const n = parsed.note;
    const vectors = await model.embed(n.chunks.map((c) => c.content));
    writer.upsertDocument({
      sourceType: 'vault',
      sourceId: file,
      title: n.title,
      contentHash: n.contentHash,
      mtimeMs: 1000,
      size: 1,
      metadata: {},
      tags: n.tags,
      sensitive: false,
      chunks: n.chunks.map((c, i) => ({ ...c, vector: vectors[i]! })),
    });
  }
}
