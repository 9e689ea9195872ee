// Schema 4: knowledge_facts, the temporal projection of the vault's inline-field facts (actors/chunker/inline-fields.ts).
// A row is never deleted: a fact line that changes or disappears gets invalidated_at, so a timeline shows it.
import type { Database } from 'better-sqlite3';

/**
 * v4. Valid time (valid_from, valid_until: epoch ms, until exclusive) comes from the note's text; recorded time
 * (recorded_at, invalidated_at) from when the index saw the line appear and go. The subject and source path follow
 * the note's title and path (triggers), so a renamed note keeps its facts; an older index upgrades in place (the
 * chunker's version changed with this, so every note is read again and its facts recorded).
 */
// IF NOT EXISTS throughout: an index faked as older by dropping only its older parts still upgrades.
export function createFactsV4(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS knowledge_facts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id TEXT NOT NULL DEFAULT 'default',
      document_id INTEGER REFERENCES memory_documents(id) ON DELETE SET NULL,
      subject TEXT NOT NULL,
      predicate TEXT NOT NULL,
      object TEXT NOT NULL,
      object_link TEXT,
      object_path TEXT,
      valid_from INTEGER,
      valid_until INTEGER,
      temporary INTEGER NOT NULL DEFAULT 0,
      confidence REAL,
      recorded_at INTEGER NOT NULL,
      invalidated_at INTEGER,
      source_path TEXT NOT NULL,
      source_line INTEGER NOT NULL,
      fact_key TEXT NOT NULL,
      problem TEXT
    );
    CREATE INDEX IF NOT EXISTS knowledge_facts_subject ON knowledge_facts(user_id, subject COLLATE NOCASE, predicate);
    CREATE INDEX IF NOT EXISTS knowledge_facts_object ON knowledge_facts(user_id, object COLLATE NOCASE);
    CREATE INDEX IF NOT EXISTS knowledge_facts_link ON knowledge_facts(user_id, object_link COLLATE NOCASE);
    CREATE INDEX IF NOT EXISTS knowledge_facts_document ON knowledge_facts(document_id) WHERE invalidated_at IS NULL;
    -- wikilink objects resolve to notes by title (facts-writer.ts, facts-reader.ts): a lookup, not a scan
    CREATE INDEX IF NOT EXISTS memory_documents_title ON memory_documents(user_id, title COLLATE NOCASE);

    CREATE TRIGGER IF NOT EXISTS knowledge_facts_subject_au AFTER UPDATE OF title ON memory_documents
    WHEN new.title IS NOT old.title BEGIN
      UPDATE knowledge_facts SET subject = new.title WHERE document_id = new.id;
    END;

    CREATE TRIGGER IF NOT EXISTS knowledge_facts_path_au AFTER UPDATE OF source_id ON memory_documents
    WHEN new.source_id IS NOT old.source_id BEGIN
      UPDATE knowledge_facts SET source_path = new.source_id WHERE document_id = new.id;
    END;

    CREATE TRIGGER IF NOT EXISTS knowledge_facts_soft_delete AFTER UPDATE OF deleted_at ON memory_documents
    WHEN new.deleted_at IS NOT NULL BEGIN
      UPDATE knowledge_facts SET invalidated_at = new.deleted_at WHERE document_id = new.id AND invalidated_at IS NULL;
    END;
  `);
}
