// Dataview-style inline fields in a note's text, read as facts about the note's subject (its title): a line
// `key:: value` (also as a list item or task), `[key:: value]` and `(key:: value)` anywhere in prose. The same line's
// `[from:: …]`, `[until:: …]`, `[temporary:: …]` and `[confidence:: …]` are the facts' validity, not facts. Obsidian's
// comments (`%%…%%`) and a line's block id (` ^id` at its end) are hidden in Obsidian and are no part of any fact.
import type { FactDraft } from '../../messages/common.js';
import { blankComments, type InlineRegion } from './inline-text.js';
import type { LineIndex } from './line-index.js';

/** A predicate as written: a letter, then letters, digits, `_` or `-` (normalised to snake_case). */
const KEY = '[A-Za-z][A-Za-z0-9_-]{0,63}';
/** A value runs to the closing bracket, with wikilinks (which hold brackets) kept whole. */
const BRACKETED = new RegExp(`(?<!\\[)\\[(${KEY})::([^\\[\\]]*(?:\\[\\[[^\\[\\]]*\\]\\][^\\[\\]]*)*)\\](?!\\])`, 'g');
const PARENTHESISED = new RegExp(`\\((${KEY})::([^()\\[\\]]*(?:\\[\\[[^\\[\\]]*\\]\\][^()\\[\\]]*)*)\\)`, 'g');
/** Blockquote marks, a list marker and a task box may come before a whole-line field. */
const LINE_FIELD = new RegExp(`^[ \\t]*(?:>[ \\t]*)*(?:(?:[-*+]|\\d{1,9}[.)])[ \\t]+(?:\\[[ xX]\\][ \\t]+)?)?(${KEY})::(.*)$`);
const WIKILINK_ONLY = /^!?\[\[([^[\]|#\n]*)(?:#[^[\]|\n]*)?(?:\|[^[\]\n]*)?\]\]$/;
const VALIDITY = new Set(['from', 'until', 'temporary', 'confidence']);
/** An Obsidian block id: `^` and letters, digits or `-`, after whitespace at the end of a line (it names the line). */
export const TRAILING_BLOCK_ID = /[ \t]+\^[A-Za-z0-9-]+[ \t]*$/;

/** What makes two readings of a fact the same fact: everything its line says, not where it sits. */
export function factKey(f: FactDraft): string {
  return JSON.stringify([f.predicate, f.object, f.objectLink, f.validFrom, f.validUntil, f.temporary, f.confidence]);
}

/** `Works-At` → `works_at`. */
export function predicateOf(key: string): string {
  return key.toLowerCase().replaceAll('-', '_');
}

/**
 * A validity date: `YYYY-MM-DD` (UTC midnight) or an ISO date-time with a zone; epoch ms, or null when it is not one.
 */
export function parseFactDate(s: string): number | null {
  const v = s.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const ms = Date.parse(`${v}T00:00:00Z`);
    return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v ? null : ms;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/.test(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

interface Field {
  key: string;
  value: string;
}

/** The object of a fact: a wikilink's target (its note, resolved by the index), or the value's text. */
function objectOf(value: string): { object: string; objectLink: string | null } {
  const v = value.replace(/\s+/g, ' ').trim();
  const link = WIKILINK_ONLY.exec(v);
  if (link) {
    const target = link[1]!.trim().replace(/\.md$/i, '');
    return { object: target.slice(target.lastIndexOf('/') + 1), objectLink: target };
  }
  return { object: v, objectLink: null };
}

/** Facts on one line of inline text (code spans already blanked out). */
function lineFacts(line: string, lineNo: number): FactDraft[] {
  if (!line.includes('::')) return [];
  const fields: Field[] = [];
  let rest = line.replace(TRAILING_BLOCK_ID, '');
  for (const re of [BRACKETED, PARENTHESISED]) {
    rest = rest.replace(re, (_m, key: string, value: string) => {
      fields.push({ key, value });
      return ' ';
    });
  }
  const whole = LINE_FIELD.exec(rest);
  if (whole) fields.unshift({ key: whole[1]!, value: whole[2]! });

  let validFrom: number | null = null;
  let validUntil: number | null = null;
  let temporary = false;
  let confidence: number | null = null;
  const problems: string[] = [];
  const facts: Field[] = [];
  for (const f of fields) {
    const key = predicateOf(f.key);
    if (!VALIDITY.has(key)) {
      facts.push({ key, value: f.value });
      continue;
    }
    const v = f.value.trim();
    if (key === 'temporary') temporary = /^(?:true|yes)$/i.test(v);
    else if (key === 'confidence') {
      const n = Number(v);
      if (v !== '' && Number.isFinite(n) && n >= 0 && n <= 1) confidence = n;
      else problems.push(`confidence must be a number from 0 to 1, got "${v}"`);
    } else {
      const ms = parseFactDate(v);
      if (ms === null) problems.push(`${key} must be a date like 2026-02-28, got "${v}"`);
      else if (key === 'from') validFrom = ms;
      else validUntil = ms;
    }
  }
  const out: FactDraft[] = [];
  for (const f of facts) {
    const { object, objectLink } = objectOf(f.value);
    if (object === '') continue; // `key::` with nothing after it is a heading of sorts, not a fact
    const draft: FactDraft = { predicate: f.key, object, objectLink, validFrom, validUntil, temporary, confidence, line: lineNo };
    if (problems.length > 0) draft.problem = problems.join('; ');
    out.push(draft);
  }
  return out;
}

/**
 * Every fact in the note's inline regions (never fenced or indented code, raw HTML, frontmatter or a comment), in line
 * order; a fact said again (the same key: another line saying the same with the same validity) is its first line's.
 */
export function inlineFacts(regions: readonly InlineRegion[], lines: LineIndex): FactDraft[] {
  const out: FactDraft[] = [];
  const seen = new Set<string>();
  for (const region of blankComments(regions)) {
    if (!region.text.includes('::')) continue;
    const first = lines.lineOf(region.offset);
    region.text.split('\n').forEach((text, i) => {
      for (const f of lineFacts(text, first + i + 1)) {
        const key = factKey(f);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(f);
      }
    });
  }
  return out;
}
