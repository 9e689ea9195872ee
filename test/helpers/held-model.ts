// Indexes written with the real model's vectors, and that model with its answers held back: a search whose query is
// "still being embedded" while a test changes the index under it.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import type { EmbeddingProvider } from '../../messages/embedding.js';
import { chunk, doc } from './index-fixture.js';

const NOW = () => 1_700_000_000_000;

export type Model = Awaited<ReturnType<typeof createUseLiteProvider>>;

/** The real model, whose answers are held back until `release()`: the query is "still being embedded". */
export function heldBack(model: Model): { provider: Pick<EmbeddingProvider, 'info' | 'embed'>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return {
    provider: {
      info: model.info,
      embed: async (texts) => {
        const v = await model.embed(texts);
        await gate;
        return v;
      },
    },
    release,
  };
}

/** An index at `file` with these notes, their vectors from the real model; the writer stays open until `close`. */
export async function fillIndex(
  t: { teardown(fn: () => void): void },
  file: string,
  model: Model,
  notes: Record<string, string>,
  dropFirst = 0,
): Promise<{ writer: IndexWriter; close: () => void }> {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = openIndex(file, { readonly: false });
  const close = () => db.open && db.close();
  t.teardown(close);
  const writer = new IndexWriter(db, { model: model.info, chunkerVersion: 'test-1', now: NOW });
  // notes written and deleted first: this file's chunk ids start past another file's
  for (let i = 0; i < dropFirst; i++) writer.upsertDocument(doc(`dropped-${i}.md`, [chunk(0, `dropped ${i}`)]));
  for (let i = 0; i < dropFirst; i++) writer.deleteDocument('vault', `dropped-${i}.md`);
  for (const [p, text] of Object.entries(notes)) {
    const [vector] = await model.embed([text]);
    writer.upsertDocument(doc(p, [chunk(0, text, { vector })]));
  }
  return { writer, close };
}
