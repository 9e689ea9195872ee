// Projects a note's inline-field facts into knowledge_facts inside the note's upsert transaction: a fact still on
// the page keeps its row (its line number follows), one that is gone or edited is invalidated, a new one recorded.
import type { Database } from 'better-sqlite3';
import { factKey } from '../chunker/inline-fields.js';
import type { FactForStore } from '../../messages/store.js';
import { prepared } from './statement-cache.js';

interface LiveFact {
  id: number;
  fact_key: string;
  source_line: number;
}

/** The live vault note a wikilink names (by path, else by title: both indexed lookups), or null when none does yet. */
export function resolveLink(db: Database, userId: string, link: string): string | null {
  const byPath = prepared(
    db,
    `SELECT source_id FROM memory_documents WHERE user_id = ? AND source_type = 'vault' AND source_id = ? AND deleted_at IS NULL`,
  )
    .pluck()
    .get(userId, `${link}.md`) as string | undefined;
  if (byPath !== undefined) return byPath;
  return (
    (prepared(
      db,
      `SELECT source_id FROM memory_documents WHERE user_id = ? AND title = ? COLLATE NOCASE AND source_type = 'vault'
       AND deleted_at IS NULL ORDER BY length(source_id), source_id LIMIT 1`,
    )
      .pluck()
      .get(userId, link.slice(link.lastIndexOf('/') + 1)) as string | undefined) ?? null
  );
}

/** Diff `facts` against the document's live rows; returns how many were recorded and invalidated. */
export function replaceFacts(
  db: Database,
  userId: string,
  documentId: number,
  subject: string,
  sourcePath: string,
  facts: readonly FactForStore[],
  now: number,
): { recorded: number; invalidated: number } {
  const live = prepared(
    db,
    `SELECT id, fact_key, source_line FROM knowledge_facts WHERE document_id = ? AND invalidated_at IS NULL ORDER BY id`,
  ).all(documentId) as LiveFact[];
  const byKey = new Map<string, LiveFact[]>();
  for (const l of live) {
    const list = byKey.get(l.fact_key);
    if (list) list.push(l);
    else byKey.set(l.fact_key, [l]);
  }
  const kept = new Set<number>();
  const added: Array<{ f: FactForStore; key: string }> = [];
  const moveLine = prepared(db, `UPDATE knowledge_facts SET source_line = ? WHERE id = ?`);
  for (const f of facts) {
    const key = factKey(f);
    const match = byKey.get(key)?.shift();
    if (!match) {
      added.push({ f, key });
      continue;
    }
    kept.add(match.id);
    if (match.source_line !== f.line) moveLine.run(f.line, match.id);
  }
  const invalidate = prepared(db, `UPDATE knowledge_facts SET invalidated_at = ? WHERE id = ?`);
  let invalidated = 0;
  for (const l of live) {
    if (kept.has(l.id)) continue;
    invalidate.run(now, l.id);
    invalidated++;
  }
  const ins = prepared(
    db,
    `INSERT INTO knowledge_facts (user_id, document_id, subject, predicate, object, object_link, object_path, valid_from,
       valid_until, temporary, confidence, recorded_at, source_path, source_line, fact_key, problem)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const { f, key } of added) {
    ins.run(
      userId,
      documentId,
      subject,
      f.predicate,
      f.object,
      f.objectLink,
      f.objectLink === null ? null : resolveLink(db, userId, f.objectLink),
      f.validFrom,
      f.validUntil,
      f.temporary ? 1 : 0,
      f.confidence,
      f.recordedAt ?? now,
      sourcePath,
      f.line,
      key,
      f.problem ?? null,
    );
  }
  return { recorded: added.length, invalidated };
}

/** A document leaving for good (replaced by a rename onto its path): its live facts are invalidated, not deleted. */
export function invalidateFactsOf(db: Database, documentId: number, now: number): void {
  prepared(db, `UPDATE knowledge_facts SET invalidated_at = ? WHERE document_id = ? AND invalidated_at IS NULL`).run(now, documentId);
}
