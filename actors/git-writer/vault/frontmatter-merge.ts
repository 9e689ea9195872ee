// Keeps a note's frontmatter across an agent's rewrite: the new content wins per key, keys it omits survive.
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, parseDocument, stringify, type Document } from 'yaml';
import { fail, type Failure } from '../../../messages/common.js';

// The same fences the chunker reads (actors/chunker/frontmatter.ts), so what we merge is what gets indexed.
const OPEN = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;
const LINE = /([^\r\n]*)(\r\n|\r|\n)?/y;

interface Block {
  bom: string;
  open: string; // the opening fence line with its line ending
  yaml: string; // the text between the fences, line endings included
  close: string; // the closing fence line, with its line ending when it has one
  body: string; // everything after, byte for byte
  eol: string; // the opening fence's line ending, reused for anything we add
}

function readLine(text: string, at: number): { content: string; eol: string; end: number } {
  LINE.lastIndex = at;
  const m = LINE.exec(text)!; // matches at every position (possibly empty)
  return { content: m[1]!, eol: m[2] ?? '', end: LINE.lastIndex };
}

/** The leading `---` block of `text`, or null when there is none (an unclosed fence is body text, as in Obsidian). */
function splitFrontmatter(text: string): Block | null {
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  const first = readLine(text, bom.length);
  if (!OPEN.test(first.content) || first.eol === '') return null;
  for (let at = first.end; at < text.length; ) {
    const line = readLine(text, at);
    if (CLOSE.test(line.content)) {
      return {
        bom,
        open: text.slice(bom.length, first.end),
        yaml: text.slice(first.end, at),
        close: text.slice(at, line.end),
        body: text.slice(line.end),
        eol: first.eol,
      };
    }
    at = line.end;
  }
  return null;
}

type Parsed = { ok: true; doc: Document; data: Record<string, unknown> } | { ok: false; error: string };

function parseMapping(yaml: string): Parsed {
  const doc = parseDocument(yaml, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) return { ok: false, error: doc.errors[0]!.message.trim() };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { ok: false, error: (err as Error).message }; // alias bombs: bad input, not a bug
  }
  if (value === null || value === undefined) return { ok: true, doc, data: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      error: `frontmatter must be a mapping of \`key: value\` lines, got ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}`,
    };
  }
  return { ok: true, doc, data: value as Record<string, unknown> };
}

/** `{...older, ...newer}` without `__proto__` keys reaching the prototype setter. */
function overlay(older: Record<string, unknown>, newer: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of [...Object.entries(older), ...Object.entries(newer)]) {
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function withEol(text: string, eol: string): string {
  return eol === '\n' ? text : text.replace(/\n/g, eol);
}

/**
 * The YAML for `merged`: the new block verbatim with the old pairs it lacks appended, so the agent's formatting and
 * comments survive. When that text does not read back as `merged` (a flow mapping, an alias to a dropped anchor),
 * the merged data is written out plainly instead.
 */
function mergedYaml(next: Block, oldDoc: Document, keep: ReadonlySet<string>, merged: Record<string, unknown>): string {
  try {
    const extra = oldDoc.clone();
    if (isMap(extra.contents)) {
      extra.contents.items = extra.contents.items.filter((p) => keep.has(isScalar(p.key) ? String(p.key.value) : String(p.key)));
      const candidate = next.yaml + withEol(String(extra), next.eol);
      const back = parseMapping(candidate);
      if (back.ok && isDeepStrictEqual(back.data, merged)) return candidate;
    }
  } catch {
    // stringify throws on an alias whose anchor was dropped; the plain form below covers it
  }
  return withEol(stringify(merged), next.eol);
}

/**
 * The text to write when `incoming` replaces `existing` (null: no such note yet).
 * - no new frontmatter: the existing block is kept as it was;
 * - both: keys the new block omits are kept from the existing one, the new value wins for every key it sets;
 * - the existing block is malformed: `incoming` as is (a bad old file never blocks a write);
 * - the new block is malformed: `invalid_content`, with the YAML error.
 * The body is never touched.
 */
export function mergeFrontmatter(existing: string | null, incoming: string): { text: string } | Failure<'invalid_content'> {
  const next = splitFrontmatter(incoming);
  const nextParsed = next === null ? null : parseMapping(next.yaml);
  if (nextParsed !== null && !nextParsed.ok) {
    return fail(
      'invalid_content',
      `the new content's frontmatter is not valid YAML: ${nextParsed.error}; fix the block between the '---' lines, or leave it out to keep the note's current frontmatter`,
    );
  }
  const old = existing === null ? null : splitFrontmatter(existing);
  const oldParsed = old === null ? null : parseMapping(old.yaml);
  if (old === null || oldParsed === null || !oldParsed.ok) return { text: incoming };
  if (next === null || nextParsed === null) {
    const bom = incoming.startsWith('\ufeff') ? '\ufeff' : '';
    const close = old.close.endsWith('\n') || old.close.endsWith('\r') ? old.close : old.close + old.eol;
    return { text: bom + old.open + old.yaml + close + incoming.slice(bom.length) };
  }
  const keep = new Set(Object.keys(oldParsed.data).filter((k) => !Object.hasOwn(nextParsed.data, k)));
  if (keep.size === 0) return { text: incoming };
  const merged = overlay(oldParsed.data, nextParsed.data);
  return { text: next.bom + next.open + mergedYaml(next, oldParsed.doc, keep, merged) + next.close + next.body };
}
