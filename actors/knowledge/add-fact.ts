// memory_add_fact's decision, as a pure function of the note's text and the subject's current facts: a near-duplicate
// is a no-op, a new value of a single-valued predicate supersedes the current one (its line gets `[until:: …]`, the new
// line `[from:: …]`, one edit so one commit), a temporary fact never supersedes anything.
import type { FactRow } from '../store-writer/facts-reader.js';
import { appendUnderFacts, formatFactLine, jaccard, setUntil, type NewFact } from './fact-lines.js';

/** Objects at least this similar (word-level Jaccard) are the same fact said twice. */
export const DUP_JACCARD = 0.7;

export interface AddFactInput {
  subject: string;
  fact: NewFact;
  /** The note the line goes into, and its text (null: a new note at that path). */
  path: string;
  text: string | null;
  /** The subject's facts with this predicate current now (any note). */
  current: readonly FactRow[];
  /** Those holding when the new fact begins (its valid_from), when it has one: a retry of a dated add is a duplicate too. */
  atStart?: readonly FactRow[];
  singleValued: ReadonlySet<string>;
  temporary: ReadonlySet<string>;
  /** When a supersession takes effect when valid_from is not given: today, UTC midnight. */
  today: number;
  /** The other current facts on a current fact's line, by its id: an `[until::]` there would end them too. */
  lineMates?: (f: FactRow) => readonly FactRow[];
}

/** Why a fact's line cannot be given an `[until::]` or removed for it alone, or null: other facts share the line. */
export function sharedLineProblem(f: FactRow, mates: readonly FactRow[], would: string): string | null {
  if (mates.length === 0) return null;
  const others = mates.map((m) => `${m.predicate}:: ${m.object}`).join(', ');
  return `line ${f.line} of ${f.path} also holds ${others}: ${would} them too; put fact ${f.id} (${f.predicate}:: ${f.object}) on a line of its own first`;
}

/** A temporary fact (it never supersedes): its line says `[temporary:: true]`, or its predicate is configured so. */
export function isTemporary(f: { predicate: string; temporary: boolean }, temporary: ReadonlySet<string>): boolean {
  return f.temporary || temporary.has(f.predicate);
}

export type AddFactPlan =
  | { kind: 'noop_dup'; existing: FactRow }
  | { kind: 'write'; text: string; line: number; superseded: FactRow[] }
  | { kind: 'conflict'; message: string };

export function planAddFact(a: AddFactInput): AddFactPlan {
  const dup = [...a.current, ...(a.atStart ?? [])].find((c) => jaccard(c.object, a.fact.object) >= DUP_JACCARD);
  if (dup) return { kind: 'noop_dup', existing: dup };
  const temporary = isTemporary({ predicate: a.fact.predicate, temporary: a.fact.temporary === true }, a.temporary);
  const supersedes = !temporary && a.singleValued.has(a.fact.predicate);
  const same = supersedes ? a.current.filter((c) => !c.temporary && c.path === a.path) : [];
  const from = a.fact.validFrom ?? (same.length > 0 ? a.today : null);
  // a value that began after the new one's start is not ended by it (its [until::] would fall before its own
  // [from::]): the new one is the older value, and the single answer at an instant is still the latest start
  const old = same.filter((c) => c.validFrom === null || from === null || c.validFrom <= from);
  let text = a.text ?? `# ${a.subject}\n`;
  const ended: FactRow[] = []; // what the new value ends: not one that ends by itself before the new one begins
  for (const c of old) {
    const line = text.split(/\r?\n/)[c.line - 1] ?? '';
    if (!line.includes(`${c.predicate}::`))
      return {
        kind: 'conflict',
        message: `line ${c.line} of ${a.path} no longer holds fact ${c.id} (${c.predicate}:: ${c.object}): the index is behind the note; retry in a moment`,
      };
    if (c.validUntil !== null && from !== null && c.validUntil <= from) continue;
    const mates = (a.lineMates?.(c) ?? []).filter((m) => !old.some((o) => o.id === m.id));
    const shared = sharedLineProblem(c, mates, 'ending it with [until::] would end');
    if (shared) return { kind: 'conflict', message: shared };
    text = setUntil(text, c.line, from ?? a.today)!;
    ended.push(c);
  }
  const added = appendUnderFacts(text, formatFactLine({ ...a.fact, validFrom: from, temporary: a.fact.temporary === true }));
  return { kind: 'write', text: added.text, line: added.line, superseded: ended };
}
