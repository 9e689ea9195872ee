// The store writer's side of episodes and facts: one projection batch (upserts, removals, the journal checkpoint)
// in one transaction, and the retention sweep, which compares times as numbers (epoch ms), never as date strings.
import type { EpisodeBatch, PruneCounts, SourceType } from '../../messages/episodes.js';
import type { IndexWriter } from './index-writer.js';

export interface EpisodesApplied {
  chunks: number;
  /** For the ingest → searchable histogram: source type and seconds since each upserted document's input arrived. */
  latencies: Array<{ sourceType: string; seconds: number }>;
  /** Fact documents upserted (with their hash) or removed (null): the gateway's read-your-writes waits on them. */
  facts: Array<{ id: string; contentHash: string | null }>;
}

/** Applies `batch` in one transaction; vectors are stored only when `vectorsOk` (the index's own model). */
export function applyEpisodeBatch(writer: IndexWriter, batch: EpisodeBatch, vectorsOk: boolean, wallNow: number): EpisodesApplied {
  return writer.inTransaction((): EpisodesApplied => {
    const out: EpisodesApplied = { chunks: 0, latencies: [], facts: [] };
    for (const k of batch.deletes) {
      writer.hardDeleteDocument(k.sourceType, k.sourceId);
      if (k.sourceType === 'fact') out.facts.push({ id: k.sourceId, contentHash: null });
    }
    for (const k of batch.softDeletes) writer.deleteDocument(k.sourceType, k.sourceId);
    for (const d of batch.upserts) {
      const r = writer.upsertDocument({
        sourceType: d.sourceType,
        sourceId: d.sourceId,
        ...(d.uri !== null ? { uri: d.uri } : {}),
        title: d.title,
        contentHash: d.contentHash,
        mtimeMs: d.atMs,
        size: d.chunks.reduce((n, c) => n + Buffer.byteLength(c.content), 0),
        metadata: d.metadata,
        tags: d.tags,
        sensitive: false,
        chunks: d.chunks.map((c) => ({ ...c, vector: vectorsOk ? c.vector : null })),
      });
      out.chunks += r.chunks;
      if (d.receivedAt > 0) out.latencies.push({ sourceType: d.sourceType, seconds: Math.max(0, wallNow - d.receivedAt) / 1000 });
      if (d.sourceType === 'fact') out.facts.push({ id: d.sourceId, contentHash: d.contentHash });
    }
    for (const m of batch.meta) writer.setMeta(m.key, m.value);
    return out;
  });
}

/**
 * Removes the episode documents of each type whose time (`metadata.at_ms`, else when it was last changed) is before
 * the type's cutoff, with their chunks, FTS and vector rows, in one transaction. Types without a cutoff, and vault
 * notes and facts always, are left alone.
 */
export function pruneEpisodes(writer: IndexWriter, cutoffs: Partial<Record<SourceType, number>>): PruneCounts {
  return writer.inTransaction((): PruneCounts => {
    const removed: PruneCounts['removed'] = {};
    for (const [type, cutoff] of Object.entries(cutoffs) as Array<[SourceType, number]>) {
      if (type === 'vault' || type === 'fact' || !Number.isFinite(cutoff)) continue;
      const ids = writer.reader.sourceIdsBefore(type, cutoff);
      for (const id of ids) writer.hardDeleteDocument(type, id);
      removed[type] = ids.length;
    }
    return { removed };
  });
}
