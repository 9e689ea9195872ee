// What the nightly extraction already knows, shown in its prompt so the model skips it: USER.md at the vault root and
// the facts current now — those about or pointing at something the material names first — each within its cap.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { isTemporary } from '../../knowledge/add-fact.js';
import { factDate } from '../../knowledge/fact-lines.js';
import { factsAt, type FactRow } from '../../store-writer/facts-reader.js';

/** Characters of USER.md shown (its head: the top of each section is what curation keeps current). */
export const USER_MD_CHARS = 6_000;
/** Characters of current facts shown. */
export const KNOWN_FACTS_CHARS = 8_000;
const WORD_BREAK = /[^\p{L}\p{N}]+/u;

export async function readUserMd(vault: string, max = USER_MD_CHARS): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path.join(vault, 'USER.md'), 'utf8');
  } catch {
    return null;
  }
  text = text.replace(/^\ufeff/, '').trim();
  if (text === '') return null;
  return text.length > max ? `${text.slice(0, max)}\n[…]` : text;
}

/** A fact as the prompt shows it; temporary as adding takes it (its line's flag or a configured temporary predicate). */
export function factLine(f: FactRow, temporary: ReadonlySet<string>): string {
  const when = [
    f.validFrom !== null ? `from ${factDate(f.validFrom)}` : null,
    f.validUntil !== null ? `until ${factDate(f.validUntil)}` : null,
  ]
    .filter((x) => x)
    .join(', ');
  return `${f.subject} | ${f.predicate} | ${f.object}${when ? ` (${when})` : ''}${isTemporary(f, temporary) ? ' (temporary)' : ''}`;
}

/**
 * Current, non-sensitive facts as lines `subject | predicate | object`, those whose subject or object appears in
 * `material` first, until `max` characters.
 */
export function knownFacts(
  db: Database,
  material: string,
  knowledge: { singleValued: ReadonlySet<string>; temporary: ReadonlySet<string> },
  at: number,
  max = KNOWN_FACTS_CHARS,
): string[] {
  const rows = factsAt(db, { at, singleValued: knowledge.singleValued, includeSensitive: false });
  const hay = material.toLowerCase();
  // a name is looked for in the material only when its first word is there: 100,000 facts stay cheap
  const words = new Set(hay.split(WORD_BREAK));
  const seen = new Map<string, boolean>();
  const mentioned = (name: string): boolean => {
    const n = name.replace(/^\[\[|\]\]$/g, '').toLowerCase();
    let hit = seen.get(n);
    if (hit === undefined) {
      const first = n.split(WORD_BREAK).find((w) => w !== '');
      hit = first !== undefined && words.has(first) && hay.includes(n);
      seen.set(n, hit);
    }
    return hit;
  };
  const named = (f: FactRow) => mentioned(f.subject) || mentioned(f.object);
  const ordered = [...rows.filter(named), ...rows.filter((f) => !named(f))];
  const out: string[] = [];
  let used = 0;
  for (const f of ordered) {
    const line = factLine(f, knowledge.temporary);
    if (used + line.length + 1 > max) break;
    out.push(line);
    used += line.length + 1;
  }
  return out;
}
