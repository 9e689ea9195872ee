// The search filters (user, liveness, sensitivity, path, source type, date, tags) as one SQL condition on `d`, the
// document, shared by the keyword and the vector half of a search.
import type { Database } from 'better-sqlite3';
import type { SearchFilters } from '../../messages/store.js';
import { prepared } from '../store-writer/statement-cache.js';

export interface FilterSql {
  where: string;
  params: Record<string, unknown>;
  /** Filters the caller chose (beyond user, liveness and sensitivity): worth counting what survives first. */
  selective: boolean;
}

export function filterSql(userId: string, f: SearchFilters): FilterSql {
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
  if (f.hideCovered) {
    // the connection's temp table (actors/dream/covered-file.ts), kept in step with the covered set: one lookup a row
    where.push(`(d.source_type <> 'fact' OR d.source_id NOT IN temp.dream_hidden)`);
  }
  const selective = Boolean(f.pathPrefix || f.sourceType || f.since !== undefined || (f.tags && f.tags.length > 0));
  return { where: where.join(' AND '), params, selective };
}

/** Which of `ids` (chunk ids) belong to documents that pass the filters, in the order given. */
export function passing(db: Database, filters: FilterSql, ids: readonly number[]): number[] {
  if (ids.length === 0) return [];
  const pass = new Set(
    prepared(
      db,
      `SELECT c.id FROM json_each(@ids) j
       CROSS JOIN memory_chunks c ON c.id = j.value
       CROSS JOIN memory_documents d ON d.id = c.document_id
       WHERE ${filters.where}`,
    )
      .pluck()
      .all({ ...filters.params, ids: JSON.stringify(ids) }) as number[],
  );
  return ids.filter((id) => pass.has(id));
}
