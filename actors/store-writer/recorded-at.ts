// recorded_at from git history: a fact line the index records for the first time is stamped with the author time of
// the commit that brought the line in (`git blame --porcelain` of the note, which follows the note's renames); a
// line not committed yet, a note outside git, or git missing leave it to the index time. Only notes with facts new to
// the index ask git (one process, via the spawner); a reindex of unchanged rows or a note re-read with the same facts
// asks nothing.
import type { Database } from 'better-sqlite3';
import type { FactForStore } from '../../messages/store.js';
import { git } from '../git-writer/git-cli.js';
import { factKey } from './facts-writer.js';
import { prepared } from './statement-cache.js';

/** One blamed line: the commit that brought it in (all zeros: not committed yet), its author time (epoch ms), its text. */
export interface BlamedLine {
  sha: string;
  authorMs: number;
  text: string;
}

const ZERO = /^0+$/;

/** `git blame --porcelain` output → final line number (1-based) → the commit and text of that line. */
export function parseBlame(porcelain: string): Map<number, BlamedLine> {
  const out = new Map<number, BlamedLine>();
  const times = new Map<string, number>();
  let sha = '';
  let line = 0;
  for (const raw of porcelain.split('\n')) {
    if (raw.startsWith('\t')) {
      if (line > 0) out.set(line, { sha, authorMs: times.get(sha) ?? Number.NaN, text: raw.slice(1) });
      continue;
    }
    const head = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/.exec(raw);
    if (head) {
      sha = head[1]!;
      line = Number(head[2]);
      continue;
    }
    if (raw.startsWith('author-time ')) times.set(sha, Number(raw.slice(12)) * 1000);
  }
  return out;
}

/** The facts of `sourceId` that have no live row yet (matched as the writer matches them: by key, each row once). */
export function factsNewToIndex(db: Database, userId: string, sourceId: string, facts: readonly FactForStore[]): FactForStore[] {
  const live = prepared(
    db,
    `SELECT f.fact_key FROM knowledge_facts f JOIN memory_documents d ON d.id = f.document_id
     WHERE d.user_id = ? AND d.source_type = 'vault' AND d.source_id = ? AND d.deleted_at IS NULL AND f.invalidated_at IS NULL`,
  )
    .pluck()
    .all(userId, sourceId) as string[];
  const left = new Map<string, number>();
  for (const k of live) left.set(k, (left.get(k) ?? 0) + 1);
  return facts.filter((f) => {
    const k = factKey(f);
    const n = left.get(k) ?? 0;
    if (n === 0) return true;
    left.set(k, n - 1);
    return false;
  });
}

export type StampOutcome = 'none_new' | 'stamped' | 'not_in_git';

/**
 * Sets `recordedAt` on the facts of `rel` new to the index, from the note's git blame. A blamed line that does not
 * carry the fact's key (the file changed since it was read) is left to the index time rather than misdated.
 */
export async function stampRecordedAt(
  db: Database,
  userId: string,
  vault: string,
  rel: string,
  facts: readonly FactForStore[],
): Promise<StampOutcome> {
  const fresh = factsNewToIndex(db, userId, rel, facts);
  if (fresh.length === 0) return 'none_new';
  const r = await git(vault, ['blame', '--porcelain', '--', rel]);
  if (!r.ok) return 'not_in_git';
  const lines = parseBlame(r.stdout);
  for (const f of fresh) {
    const b = lines.get(f.line);
    if (!b || ZERO.test(b.sha) || !Number.isFinite(b.authorMs)) continue;
    if (!b.text.toLowerCase().replaceAll('-', '_').includes(`${f.predicate}::`)) continue;
    f.recordedAt = b.authorMs;
  }
  return 'stamped';
}
