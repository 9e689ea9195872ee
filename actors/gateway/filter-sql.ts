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

/**
 * What one search has learned of its chunks, so that each is looked up once however many of its lists meet it (the
 * keyword list, the two vector passes, the feedback seeds and the note ranking). `doc`: each chunk's document;
 * `pass`: whether it passes the search's filters; `docPass`: the same for each document looked up. Learned under one
 * search's filters, in its read transaction. `known`: a chunk's document when the caller knows it without a read (the
 * coarse index's, synced in the same snapshot), else undefined.
 */
export interface ChunkFacts {
  doc: Map<number, number>;
  pass: Map<number, boolean>;
  docPass: Map<number, boolean>;
  known: (id: number) => number | undefined;
}

export function chunkFacts(known: (id: number) => number | undefined = () => undefined): ChunkFacts {
  return { doc: new Map(), pass: new Map(), docPass: new Map(), known };
}

/**
 * Which of `ids` (chunk ids) belong to documents that pass the filters, in the order given. Only the chunks `facts`
 * does not know yet are looked up, and of those whose document `facts.known` gives, only the documents not looked up
 * yet: at 100k chunks a hybrid search's ~320 candidates came to ~250 documents, read from a table of 1.7 MB where the
 * chunk rows took 19 MB (the bench store; real notes' chunks are larger). Their documents are added to `facts.doc`.
 */
export function passing(db: Database, filters: FilterSql, ids: readonly number[], facts: ChunkFacts = chunkFacts()): number[] {
  if (ids.length === 0) return [];
  const missing = [...new Set(ids)].filter((id) => !facts.pass.has(id));
  if (missing.length > 0) {
    const unknown: number[] = [];
    const known: Array<[id: number, doc: number]> = [];
    const docs = new Set<number>();
    for (const id of missing) {
      const doc = facts.known(id);
      if (doc === undefined) unknown.push(id);
      else {
        known.push([id, doc]);
        if (!facts.docPass.has(doc)) docs.add(doc);
      }
    }
    if (docs.size > 0) {
      // rows as arrays: an object a row costs ~1.5 µs more
      const rows = prepared(
        db,
        `SELECT d.id, (${filters.where}) AS ok FROM json_each(@docs) j CROSS JOIN memory_documents d ON d.id = j.value`,
      )
        .raw()
        .all({ ...filters.params, docs: JSON.stringify([...docs]) }) as Array<[doc: number, ok: number | null]>;
      for (const doc of docs) facts.docPass.set(doc, false); // a document gone does not pass
      for (const [doc, ok] of rows) facts.docPass.set(doc, ok === 1); // NULL fails, as it would in a WHERE
    }
    for (const [id, doc] of known) {
      facts.doc.set(id, doc);
      facts.pass.set(id, facts.docPass.get(doc) === true);
    }
    if (unknown.length > 0) {
      const rows = prepared(
        db,
        `SELECT c.id, c.document_id AS doc, (${filters.where}) AS ok FROM json_each(@ids) j
         CROSS JOIN memory_chunks c ON c.id = j.value
         CROSS JOIN memory_documents d ON d.id = c.document_id`,
      )
        .raw()
        .all({ ...filters.params, ids: JSON.stringify(unknown) }) as Array<[id: number, doc: number, ok: number | null]>;
      for (const id of unknown) facts.pass.set(id, false); // a chunk gone (or without its document) does not pass
      for (const [id, doc, ok] of rows) {
        facts.doc.set(id, doc);
        facts.pass.set(id, ok === 1);
        facts.docPass.set(doc, ok === 1);
      }
    }
  }
  return ids.filter((id) => facts.pass.get(id) === true);
}
