// The nightly extraction's answer, read tolerantly: three sections — MEMORIES (bullets, each with a ref), FACTS (JSON
// triples), TOPICS (ref → one of the seven topics). A missing or malformed section degrades rather than fails: no
// section headings at all → every line of the answer is a memory and there are no facts; FACTS that are not JSON →
// no facts; a triple missing a field → that triple rejected with its reason. The sentinel NO_NEW_MEMORIES alone
// means nothing new.

export const TOPICS = ['work', 'tech', 'personal', 'finance', 'admin', 'learning', 'meta'] as const;
export type Topic = (typeof TOPICS)[number];
export const SENTINEL = 'NO_NEW_MEMORIES';
/** A memory is one fact-log line: longer ones are cut (memory_remember refuses over 2,000 characters). */
export const MAX_MEMORY_CHARS = 1_000;

export interface Memory {
  /** The ref TOPICS names it by (`1`, `m1` …), or null. */
  ref: string | null;
  text: string;
  topic: Topic | null;
}

/** A triple as the model gave it (checked later by memory_add_fact's own argument schema). */
export type RawFact = Record<string, unknown>;

export interface ParseProblem {
  /** degraded, missing_section, bad_json, not_a_triple, bad_topic_line, unknown_ref, unknown_topic */
  reason: string;
  detail: string;
}

export interface Extraction {
  /** The answer was the sentinel (nothing new): write nothing, advance the state. */
  none: boolean;
  memories: Memory[];
  facts: RawFact[];
  problems: ParseProblem[];
}

type Section = 'memories' | 'facts' | 'topics';
/** `## FACTS`, `**Facts:**`, `TOPICS:` — and `FACTS: [...]` with the section's first line after the colon. */
const HEADING = /^\s{0,3}(?:#{1,6}\s*)?(?:\*\*|__)?\s*(memories|facts|topics)\s*(?:\*\*|__)?\s*(?::\s*(?:\*\*|__)?\s*(.*?))?\s*$/i;
const BULLET = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.*)$/;
/** A memory's ref: `[1]`, `[m1]`, `m1:` or `1.` before its text. */
const REF = /^(?:\[([A-Za-z]?\d{1,3})\]|([A-Za-z]\d{1,3})[.):]?|(\d{1,3})[.):])\s+(.*)$/;
const NONE = /^\(?(?:none|nothing(?: new)?|n\/a)\.?\)?$/i;
const TOPIC_LINE = /^\s*(?:[-*+•]\s*)?\[?([A-Za-z]?\d{1,3})\]?\s*(?:[:=]|->|→|—|-)\s*\**([A-Za-z]+)\**\s*[.,;]?\s*$/;
const FENCE = /^\s*(```|~~~)/;

/** The sentinel, give or take quotes, emphasis, a full stop and its case. */
const isSentinel = (s: string) => s.replace(/^[`*_"'\s]+|[`*_"'.!\s]+$/g, '').toUpperCase() === SENTINEL;

/** Memory refs are compared without a letter prefix or leading zeros: `m01`, `1` and `[1]` are one ref. */
function refKey(ref: string): string {
  return String(Number(ref.replace(/^[A-Za-z]/, '')));
}

function cleanMemory(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters never reach the fact log
  const one = s.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  return one.length > MAX_MEMORY_CHARS ? `${one.slice(0, MAX_MEMORY_CHARS - 1)}…` : one;
}

function memoryLine(raw: string): { ref: string | null; text: string } | null {
  if (FENCE.test(raw) || isSentinel(raw)) return null;
  const b = BULLET.exec(raw);
  let body = (b ? b[1]! : raw).trim();
  const numbered = /^\s*(\d{1,3})[.)]\s/.exec(raw);
  let ref: string | null = numbered ? numbered[1]! : null;
  const r = REF.exec(body);
  if (r && (ref === null || body.startsWith('['))) {
    ref = r[1] ?? r[2] ?? r[3]!;
    body = r[4]!;
  }
  const text = cleanMemory(body);
  return text === '' || NONE.test(text) || isSentinel(text) ? null : { ref, text };
}

/** JSON values in `text`: one array or object, or one per line (JSON lines); null when none parses. */
function jsonValues(text: string): unknown[] | null {
  const body = text
    .split('\n')
    .filter((l) => !FENCE.test(l))
    .join('\n')
    .trim();
  if (body === '' || isSentinel(body)) return [];
  try {
    const v = JSON.parse(body) as unknown;
    return Array.isArray(v) ? v : [v];
  } catch {
    /* try line by line */
  }
  const out: unknown[] = [];
  for (const line of body.split('\n')) {
    const l = line.trim().replace(/,$/, '');
    if (l === '' || l === '[' || l === ']' || isSentinel(l)) continue;
    try {
      out.push(JSON.parse(l.replace(/^[-*]\s+/, '')));
    } catch {
      // a whole object pulled out of a sentence ("Here: {…}"), else nothing from this line
      const s = l.indexOf('{');
      const e = l.lastIndexOf('}');
      if (s < 0 || e < s) return out.length ? out : null;
      try {
        out.push(JSON.parse(l.slice(s, e + 1)));
      } catch {
        return out.length ? out : null;
      }
    }
  }
  return out;
}

const TRIPLE_KEYS = ['subject', 'predicate', 'object', 'valid_from', 'valid_until', 'temporary'] as const;

/**
 * A triple as memory_add_fact takes it: its six keys only (a model's extra `confidence` or `source` dropped), an
 * optional one that is null or empty left out; what remains is checked by the tool's own schema.
 */
export function tripleArgs(raw: RawFact): RawFact {
  const out: RawFact = {};
  for (const k of TRIPLE_KEYS) {
    const v = raw[k];
    if (v === undefined || ((v === null || v === '') && k !== 'subject' && k !== 'predicate' && k !== 'object')) continue;
    out[k] = v;
  }
  return out;
}

function isTopic(s: string): s is Topic {
  return (TOPICS as readonly string[]).includes(s);
}

export function parseExtraction(answer: string): Extraction {
  const text = answer.replace(/\r\n?/g, '\n').trim();
  const out: Extraction = { none: false, memories: [], facts: [], problems: [] };
  const bare = text
    .split('\n')
    .filter((l) => !FENCE.test(l))
    .join(' ');
  if (isSentinel(bare)) return { ...out, none: true };
  const parts: Record<Section, string[] | null> = { memories: null, facts: null, topics: null };
  let cur: Section | null = null;
  for (const line of text.split('\n')) {
    const h = HEADING.exec(line);
    if (h) {
      cur = h[1]!.toLowerCase() as Section;
      const lines = parts[cur] ?? [];
      parts[cur] = lines;
      if (h[2]) lines.push(h[2]);
      continue;
    }
    if (cur) parts[cur]!.push(line);
  }
  if (parts.memories === null && parts.facts === null && parts.topics === null) {
    // no sections at all: the whole answer as memories, no facts
    out.problems.push({ reason: 'degraded', detail: 'no MEMORIES/FACTS/TOPICS headings: every line of the answer taken as a memory' });
    for (const l of text.split('\n')) {
      const m = memoryLine(l);
      if (m) out.memories.push({ ref: null, text: m.text, topic: null });
    }
    return out;
  }
  for (const s of ['memories', 'facts', 'topics'] as const)
    if (parts[s] === null) out.problems.push({ reason: 'missing_section', detail: `no ${s.toUpperCase()} section` });
  for (const l of parts.memories ?? []) {
    const m = memoryLine(l);
    if (m) out.memories.push({ ...m, topic: null });
  }
  if (parts.facts !== null) {
    const vals = jsonValues(parts.facts.join('\n'));
    if (vals === null)
      out.problems.push({ reason: 'bad_json', detail: `FACTS is not JSON: ${parts.facts.join(' ').trim().slice(0, 120)}` });
    // `{"facts": [...]}`: the array inside
    else
      for (const v of vals.length === 1 && Array.isArray((vals[0] as { facts?: unknown } | null)?.facts)
        ? (vals[0] as { facts: unknown[] }).facts
        : vals) {
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.facts.push(v as RawFact);
        else out.problems.push({ reason: 'not_a_triple', detail: `a fact must be a JSON object: ${JSON.stringify(v).slice(0, 120)}` });
      }
  }
  const byRef = new Map<string, Memory>();
  out.memories.forEach((m, i) => byRef.set(refKey(m.ref ?? String(i + 1)), m));
  for (const l of parts.topics ?? []) {
    if (l.trim() === '' || FENCE.test(l) || isSentinel(l)) continue;
    const t = TOPIC_LINE.exec(l);
    if (!t) {
      out.problems.push({ reason: 'bad_topic_line', detail: `not "ref: topic": ${l.trim().slice(0, 120)}` });
      continue;
    }
    const topic = t[2]!.toLowerCase();
    const m = byRef.get(refKey(t[1]!));
    if (!m) out.problems.push({ reason: 'unknown_ref', detail: `TOPICS names ${t[1]}, which is no memory` });
    else if (!isTopic(topic))
      out.problems.push({
        reason: 'unknown_topic',
        detail: `${t[1]} → ${topic}: not one of ${TOPICS.join(', ')} (written without a category)`,
      });
    else m.topic = topic;
  }
  return out;
}
