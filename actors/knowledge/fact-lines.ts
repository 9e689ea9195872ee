// Text edits of fact lines in a note, as pure functions: format a fact as an inline-field line, append it under the
// note's `## Facts` heading, add `[until:: …]` to a line, remove a line, and the word-level Jaccard used to dedup.
import { TRAILING_BLOCK_ID } from '../chunker/inline-fields.js';

export interface NewFact {
  predicate: string;
  /** Plain text, or a `[[wikilink]]` kept as written. */
  object: string;
  validFrom?: number | null;
  validUntil?: number | null;
  temporary?: boolean;
}

const PREDICATE = /^[a-z][a-z0-9_]{0,63}$/;

/** `YYYY-MM-DD` for a UTC midnight, else the full ISO instant. */
export function factDate(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}

/** Why a fact cannot be written as a line, or null: the reader (inline-fields.ts) must read back what we write. */
export function factProblem(f: NewFact): string | null {
  if (!PREDICATE.test(f.predicate)) return `predicate must be snake_case (a-z, 0-9, _; starting with a letter), got "${f.predicate}"`;
  if (['from', 'until', 'temporary', 'confidence'].includes(f.predicate)) return `"${f.predicate}" is a validity field, not a predicate`;
  const o = f.object.trim();
  if (o === '') return 'object is empty';
  if (/[\r\n]/.test(o)) return 'object must be one line';
  if (o.includes('::')) return 'object must not hold "::" (it would read as another field)';
  if (o.includes('`')) return 'object must not hold a backtick (a code span is never read as a fact, so it would be lost)';
  const link = /^\[\[[^[\]\n]+\]\]$/.test(o);
  if (!link && /[[\]]/.test(o)) return 'object must not hold square brackets unless it is one [[wikilink]]';
  if (f.validFrom != null && f.validUntil != null && f.validUntil <= f.validFrom) return 'valid_until must be after valid_from';
  return null;
}

export function formatFactLine(f: NewFact): string {
  let line = `- ${f.predicate}:: ${f.object.trim()}`;
  if (f.validFrom != null) line += ` [from:: ${factDate(f.validFrom)}]`;
  if (f.validUntil != null) line += ` [until:: ${factDate(f.validUntil)}]`;
  if (f.temporary) line += ' [temporary:: true]';
  return line;
}

const FACTS_HEADING = /^##[ \t]+facts[ \t]*#*[ \t]*$/i;
const HEADING = /^(#{1,6})[ \t]/;

/**
 * `text` with `line` appended at the end of its `## Facts` section (after its last non-blank line), or with a new
 * `## Facts` section at the end of the note. Line endings follow the note's (CRLF stays CRLF).
 */
export function appendUnderFacts(text: string, line: string): { text: string; line: number } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop(); // the final newline: put back on return
  let fence = false;
  let start = -1;
  let end = lines.length; // exclusive: the next heading of level 1 or 2
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^[ \t]*(```|~~~)/.test(l)) fence = !fence;
    if (fence) continue;
    if (start < 0 && FACTS_HEADING.test(l)) start = i;
    else if (start >= 0 && (HEADING.exec(l)?.[1]?.length ?? 9) <= 2) {
      end = i;
      break;
    }
  }
  if (start < 0) {
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    const head = lines.length > 0 ? [...lines, ''] : [];
    const out = [...head, '## Facts', '', line];
    return { text: out.join(eol) + eol, line: out.length };
  }
  let at = end;
  while (at > start + 1 && lines[at - 1]!.trim() === '') at--;
  const insert = at === start + 1 ? ['', line] : [line];
  // a bullet right after a paragraph line would join it: keep the list apart
  if (at > start + 1 && !/^[ \t]*(?:[-*+]|\d+[.)])[ \t]/.test(lines[at - 1]!)) insert.unshift('');
  lines.splice(at, 0, ...insert);
  const next = lines[at + insert.length];
  if (next !== undefined && next.trim() !== '') lines.splice(at + insert.length, 0, '');
  return { text: lines.join(eol) + eol, line: at + insert.length };
}

/**
 * Sets `[until:: date]` on 1-based `lineNo`, replacing any end already there — `[until:: …]` or `(until:: …)`, which
 * the reader takes alike: the first becomes the new tag, others go — so the line reads back with this end (a new one
 * goes before the line's block id); null when the line is not there.
 */
export function setUntil(text: string, lineNo: number, until: number): string | null {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const l = lines[lineNo - 1];
  if (l === undefined) return null;
  const tag = `[until:: ${factDate(until)}]`;
  const existing = /[ \t]*(?:\[until::[^\]]*\]|\(until::[^()]*\))/gi;
  let n = 0;
  const replaced = l.replace(existing, (m) => (n++ === 0 ? m.slice(0, m.length - m.trimStart().length) + tag : ''));
  // a block id (` ^id`) names the line only at its end: the new end goes before it
  const id = TRAILING_BLOCK_ID.exec(l)?.index ?? l.length;
  lines[lineNo - 1] = n > 0 ? replaced : `${l.slice(0, id).trimEnd()} ${tag}${l.slice(id)}`;
  return lines.join(eol);
}

/** `text` without 1-based `lineNo`; null when there is no such line. */
export function removeLine(text: string, lineNo: number): string | null {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  if (lineNo < 1 || lineNo > lines.length || (lineNo === lines.length && lines[lineNo - 1] === '')) return null;
  lines.splice(lineNo - 1, 1);
  return lines.join(eol);
}

function words(s: string): Set<string> {
  return new Set(
    s
      .toLowerCase()
      .replace(/\[\[|\]\]/g, ' ')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== ''),
  );
}

/** Word-level Jaccard similarity of two objects (case and punctuation ignored; 1 when both have no words). */
export function jaccard(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (x.size === 0 && y.size === 0) return 1;
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  return both / (x.size + y.size - both);
}
