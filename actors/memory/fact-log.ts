// The fact log's text format, shared by the git writer (which appends) and the memory actor (which indexes):
// `Memory/Log/YYYY-MM-DD.md` holds `## HH:MM — who` headers, each followed by fact lines
// `- [category] content #tag1 #tag2`. A fact's id is its day and the first 8 hex digits of the sha256 of its
// normalised text (lower-case, whitespace collapsed, trailing punctuation dropped) — what tombstones match too.
import { sha256Hex } from '../../messages/hash.js';

export interface FactFields {
  content: string;
  category?: string | null;
  tags: string[];
}

export interface ParsedFact extends Required<FactFields> {
  /** 1-based line in the day log. */
  line: number;
  /** The line as written, without its `- `. */
  text: string;
  /** `HH:MM` of the header above it (null: above any header). */
  time: string | null;
  who: string | null;
  norm: string;
  factId: string;
}

const HEADER = /^## (\d{2}):(\d{2}) — (.*)$/;
const FACT = /^- (?:\[([^\]\n]{1,60})\] )?(.*)$/;
/** What FACT reads as a category at the start of a line's text. */
const CATEGORY_FIRST = /^\[[^\]\n]{1,60}\] /;
/** Trailing Obsidian tags (`#tag`, `#a/b`, not `#123`): kept as tags, not content. */
const TAGS = /(?:(?:^|\s+)#[\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)+\s*$/u;

/** Lower-case, whitespace collapsed, trailing punctuation dropped: two spellings of one fact compare equal. */
export function normaliseFact(content: string): string {
  return content
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.,;:!?…。]+$/u, '');
}

export function factId(date: string, content: string): string {
  return `${date}#${sha256Hex(normaliseFact(content)).slice(0, 8)}`;
}

/**
 * `- [category] content #tag1 #tag2`. Content without a category that would read back as one (`[draft] plan`), or
 * that starts with the escape itself (`\[`, `\\`), gets a backslash in front (`- \[draft] plan`, as Markdown escapes
 * it). Other content is written as given: a leading wikilink (`[[Alice]] moved`) never reads as a category, and an
 * escaped one would no longer link in Obsidian.
 */
export function formatFactLine(f: FactFields): string {
  const cat = f.category ? `[${f.category}] ` : '';
  const tags = f.tags.map((t) => ` #${t}`).join('');
  const escaped = !f.category && (CATEGORY_FIRST.test(`${f.content}${tags}`) || /^\\[[\\]/.test(f.content));
  return `- ${cat}${escaped ? '\\' : ''}${f.content}${tags}`;
}

/** A fact line's parts, or null when the line is not a fact. */
export function parseFactLine(line: string): (FactFields & { category: string | null }) | null {
  const m = FACT.exec(line.trimEnd());
  if (!m) return null;
  let content = m[2]!;
  let tags: string[] = [];
  const t = TAGS.exec(content);
  if (t) {
    tags = t[0]
      .trim()
      .split(/\s+/)
      .map((x) => x.slice(1));
    content = content.slice(0, t.index);
  }
  content = content.trim();
  if (m[1] === undefined && /^\\[[\\]/.test(content)) content = content.slice(1); // formatFactLine's escape
  if (content === '') return null;
  return { content, category: m[1] ?? null, tags };
}

/** Every fact of a day log, with the header (time, who) it sits under. */
export function parseDayLog(text: string, date: string): ParsedFact[] {
  const out: ParsedFact[] = [];
  let time: string | null = null;
  let who: string | null = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const h = HEADER.exec(raw);
    if (h) {
      time = `${h[1]}:${h[2]}`;
      who = h[3]!.trim();
      return;
    }
    const f = parseFactLine(raw);
    if (!f) return;
    const norm = normaliseFact(f.content);
    out.push({ ...f, line: i + 1, text: raw.trimEnd().slice(2), time, who, norm, factId: `${date}#${sha256Hex(norm).slice(0, 8)}` });
  });
  return out;
}

/** Each fact's copies in a day log that no tombstone reached (one id: the same normalised content), in log order. */
export function factCopies(text: string, date: string, tombstones: Tombstones): Map<string, ParsedFact[]> {
  const copies = new Map<string, ParsedFact[]>();
  for (const f of parseDayLog(text, date)) {
    if (isForgotten(tombstones, f.norm, date, f)) continue;
    const same = copies.get(f.factId);
    if (same) same.push(f);
    else copies.set(f.factId, [f]);
  }
  return copies;
}

/** A fact's distinct lines, first first: copies differing in their tags are all kept, repeats of a line are not. */
export function distinctLines<T extends { text: string }>(copies: readonly T[]): T[] {
  return [...new Map(copies.map((c) => [c.text, c])).values()];
}

/** The content hash of a fact's document: its distinct lines (one line: the sha256 of that line). */
export function factContentHash(copies: ReadonlyArray<{ text: string }>): string {
  return sha256Hex(
    distinctLines(copies)
      .map((c) => c.text)
      .join('\n'),
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters is the point
const CONTROL_RUN = /[\u0000-\u001f\u007f]+/g;

/** The last `## HH:MM — who` line of `text`, found from the end (a long log is not scanned from its start). */
export function lastHeaderLine(text: string): string | undefined {
  for (let end = text.length; end > 0; ) {
    const nl = text.lastIndexOf('\n## ', end - 1);
    const start = nl < 0 ? (text.startsWith('## ') ? 0 : -1) : nl + 1;
    if (start < 0) return undefined;
    const stop = text.indexOf('\n', start);
    const line = text.slice(start, stop < 0 ? undefined : stop);
    if (HEADER.test(line)) return line;
    end = Math.max(0, start - 1);
  }
  return undefined;
}

/** One line of a header's `who`: no line breaks, no control characters. */
export function headerWho(who: string): string {
  return who.replace(CONTROL_RUN, ' ').replace(/\s+/g, ' ').trim().slice(0, 120) || 'agent';
}

/**
 * The day log with `line` appended under a `## time — who` header (a new header unless the last one is the same),
 * and the appended line's number. A missing log starts with its date as title.
 */
export function appendToDayLog(
  current: string | null,
  date: string,
  time: string,
  who: string,
  line: string,
): { text: string; line: number } {
  const header = `## ${time} — ${headerWho(who)}`;
  if (current === null || current.trim() === '') return { text: `# ${date}\n\n${header}\n${line}\n`, line: 4 };
  const base = current.endsWith('\n') ? current : `${current}\n`;
  const lines = base.slice(0, -1).split('\n');
  let last: string | undefined;
  for (let i = lines.length - 1; i >= 0 && last === undefined; i--) if (HEADER.test(lines[i]!)) last = lines[i];
  if (last === header) return { text: `${base}${line}\n`, line: lines.length + 1 };
  return { text: `${base}\n${header}\n${line}\n`, line: lines.length + 3 };
}

/** The local calendar day and minute of `ms` (`YYYY-MM-DD`, `HH:MM`): a person reads the log in their own time. */
export function localDay(ms: number): { date: string; time: string } {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return { date: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`, time: `${p(d.getHours())}:${p(d.getMinutes())}` };
}

/** The instant of a log's date and header time (local), epoch ms; start of the day without a time. */
export function factInstant(date: string, time: string | null): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = (time ?? '00:00').split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, hh, mm).getTime();
}

/**
 * A tombstone as `Memory/tombstones.jsonl` holds it: the normalised fact, when it was forgotten, and `through`, the
 * log position it reached (`YYYY-MM-DD:N`: the day log of that moment and its line count then). Every copy of the
 * fact up to that position is forgotten; one remembered after it is a new memory. Tombstones written before
 * `through` existed compare the instant with the fact's header minute read in local time — which moved with the
 * time zone (a daemon started with another TZ brought forgotten facts back) and could not tell a fact remembered
 * again in the minute it was forgotten from the one forgotten.
 */
export interface Tombstone {
  fact: string;
  fact_id?: string;
  at: string;
  agent?: string;
  reason?: string;
  through?: string;
}

/**
 * When a fact's text was forgotten: the furthest log position a tombstone recorded, and the latest instant of those
 * that recorded none (written before `through` existed).
 */
export interface Forgotten {
  through: LogPosition | null;
  legacyAt: number | null;
}
export interface LogPosition {
  day: string;
  line: number;
}
export type Tombstones = ReadonlyMap<string, Forgotten>;

const THROUGH = /^(\d{4}-\d{2}-\d{2}):(\d+)$/;
const after = (a: LogPosition, b: LogPosition): boolean => a.day > b.day || (a.day === b.day && a.line > b.line);

/** The log position a tombstone records: today's day log (local date) and how many lines it has now. */
export function logPosition(day: string, dayLogText: string | null): string {
  const t = dayLogText ?? '';
  const lines = t === '' ? 0 : t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
  return `${day}:${lines}`;
}

/** Normalised fact → when it was forgotten (malformed lines are skipped). */
export function parseTombstones(text: string): Map<string, Forgotten> {
  const out = new Map<string, Forgotten>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const t = JSON.parse(line) as Tombstone;
      const at = Date.parse(t.at);
      if (typeof t.fact !== 'string' || !Number.isFinite(at)) continue;
      const m = typeof t.through === 'string' ? THROUGH.exec(t.through) : null;
      const norm = normaliseFact(t.fact);
      const was = out.get(norm) ?? { through: null, legacyAt: null };
      if (m) {
        const through = { day: m[1]!, line: Number(m[2]) };
        if (was.through === null || after(through, was.through)) was.through = through;
      } else was.legacyAt = Math.max(was.legacyAt ?? at, at);
      out.set(norm, was);
    } catch {
      // a person's stray line: not a tombstone
    }
  }
  return out;
}

/** Whether the fact at `line` of `day`'s log (under a header of `time`) is forgotten: a tombstone of its text reached it. */
export function isForgotten(tombstones: Tombstones, norm: string, day: string, fact: { line: number; time: string | null }): boolean {
  const t = tombstones.get(norm);
  if (t === undefined) return false;
  if (t.through !== null && !after({ day, line: fact.line }, t.through)) return true;
  // a tombstone from before `through`: its instant against the header's minute, read in local time
  return t.legacyAt !== null && factInstant(day, fact.time) <= t.legacyAt;
}
