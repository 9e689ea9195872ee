// Reads a note's leading `---` YAML block with the yaml library, and the fields memvault cares about in it.
import { parseDocument } from 'yaml';
import { normalizeTag } from './tags.js';

export interface Frontmatter {
  data: Record<string, unknown>;
  error?: string;
  /** 0-based index of the line after the closing fence (0 when there is no frontmatter). */
  bodyStartLine: number;
  /** The YAML source, kept so a malformed block can still be checked for privacy flags. */
  raw: string;
}

const FENCE = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/** Finds and parses frontmatter in `lines` (the note's lines, `\n`-split, BOM already dropped). */
export function readFrontmatter(lines: readonly string[]): Frontmatter {
  if (lines.length < 2 || !FENCE.test(lines[0]!)) return { data: {}, bodyStartLine: 0, raw: '' };
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (CLOSE.test(lines[i]!)) {
      close = i;
      break;
    }
  }
  // Obsidian treats an unclosed fence as body text (a thematic break), so do we.
  if (close < 0) return { data: {}, bodyStartLine: 0, raw: '' };
  const raw = lines.slice(1, close).join('\n');
  const where = `frontmatter (file lines 2-${close})`;
  const doc = parseDocument(raw, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return { data: {}, error: `invalid YAML in ${where}: ${doc.errors[0]!.message.trim()}`, bodyStartLine: close + 1, raw };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // toJS throws on alias bombs ("Excessive alias count"); that is bad input, not a bug.
    return { data: {}, error: `invalid YAML in ${where}: ${(err as Error).message}`, bodyStartLine: close + 1, raw };
  }
  if (value === null || value === undefined) return { data: {}, bodyStartLine: close + 1, raw };
  if (typeof value !== 'object' || Array.isArray(value)) {
    const got = Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    return { data: {}, error: `${where} must be a YAML mapping of \`key: value\` lines, got ${got}`, bodyStartLine: close + 1, raw };
  }
  return { data: value as Record<string, unknown>, bodyStartLine: close + 1, raw };
}

/** Frontmatter `title` when it is a non-empty string, else the file name without `.md`. */
export function noteTitle(data: Record<string, unknown>, path: string): string {
  const title = data['title'];
  if (typeof title === 'string' && title.trim() !== '') return oneLine(title);
  if (typeof title === 'number' && Number.isFinite(title)) return String(title);
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.replace(/\.(?:md|markdown)$/i, '') || base || path; // a file named `.md` is titled `.md`
}

/**
 * `memvault: local-only` or `sensitive: true` (also `"true"`/`yes`, as people type them).
 * When the YAML is malformed we cannot read the flags, so a block that merely names either key counts as
 * sensitive: a typo must never send a private note to a remote embedder.
 */
export function isSensitive(fm: Frontmatter): boolean {
  if (fm.error !== undefined) return /^[ \t]*["']?(?:sensitive|memvault)["']?[ \t]*:/im.test(fm.raw);
  const flag = fm.data['sensitive'];
  if (flag === true || (typeof flag === 'string' && /^(?:true|yes)$/i.test(flag.trim()))) return true;
  const mode = fm.data['memvault'];
  const modes = Array.isArray(mode) ? mode : [mode];
  return modes.some((m) => typeof m === 'string' && m.trim().toLowerCase() === 'local-only');
}

/** Tags from `tags` (or Obsidian's older `tag`): a list, or one string separated by commas or spaces. */
export function frontmatterTags(data: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ['tags', 'tag']) {
    const value = data[key];
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item !== 'string' && typeof item !== 'number') continue;
      for (const word of String(item).split(/[\s,]+/)) {
        const tag = normalizeTag(word.replace(/^#+/, ''));
        if (tag !== null) out.push(tag);
      }
    }
  }
  return out;
}

export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
