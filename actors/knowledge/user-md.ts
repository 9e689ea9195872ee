// USER.md curation, op-based: the file is a preamble and `##` sections, of which only each section's top region
// (before its first `###`) may change. Proposed ops ({"ops": [...]}, fences stripped) are validated one by one with
// stable reasons, applied in order, and the outcome decides whether anything is written: a run whose applied ops are
// all no-ops leaves the file byte-identical (so CRLF or trailing-space drift never causes a rewrite).

export type CurationOp =
  | { op: 'append'; heading: string; line: string }
  | { op: 'add_heading'; heading: string; lines: string[] }
  | { op: 'remove'; heading: string; match: string };

export type RejectReason =
  | 'unknown_op'
  | 'missing_field'
  | 'heading_missing'
  | 'heading_exists'
  | 'empty_line'
  | 'empty_lines'
  | 'empty_heading'
  | 'empty_match'
  | 'line_starts_with_hash'
  | 'heading_starts_with_hash'
  | 'multiple_matches'
  | 'not_json';

export type Outcome = 'applied' | 'noop_dup' | 'noop_no_match';

export interface OpResult {
  index: number;
  op: unknown;
  outcome: Outcome | 'rejected';
  reason?: RejectReason;
}

export interface CurationResult {
  /** The new text, or null when nothing changes (every op a no-op or rejected): do not write, do not commit. */
  text: string | null;
  results: OpResult[];
}

interface Section {
  heading: string; // without `## `
  headingLine: string;
  top: string[]; // lines before the first `###`
  rest: string[]; // from the first `###` on
}

interface Doc {
  preamble: string[];
  sections: Section[];
  eol: string;
  finalEol: boolean;
}

const HASH_HEADING = /^#+\s/; // `# x` is a heading; `#tag` and "issue #42" are fine

function parse(text: string): Doc {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const finalEol = lines.length > 1 && lines[lines.length - 1] === '';
  if (finalEol) lines.pop();
  const doc: Doc = { preamble: [], sections: [], eol, finalEol };
  let fence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const cur = doc.sections[doc.sections.length - 1];
    if (!fence && /^##\s+/.test(line) && !/^###/.test(line)) {
      doc.sections.push({ heading: line.replace(/^##\s+/, '').trim(), headingLine: line, top: [], rest: [] });
    } else if (!cur) doc.preamble.push(line);
    else if (cur.rest.length > 0 || (!fence && /^###\s/.test(line))) cur.rest.push(line);
    else cur.top.push(line);
  }
  return doc;
}

function render(doc: Doc): string {
  const lines = [...doc.preamble];
  for (const s of doc.sections) lines.push(s.headingLine, ...s.top, ...s.rest);
  return lines.join(doc.eol) + (doc.finalEol ? doc.eol : '');
}

/** A line's text without its bullet marker, for comparison (case-insensitive, trailing spaces ignored). */
const bare = (l: string) =>
  l
    .trim()
    .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
    .trim()
    .toLowerCase();

const find = (doc: Doc, heading: string) => doc.sections.find((s) => s.heading.toLowerCase() === heading.trim().toLowerCase());

/** Appends `line` to a section's top region, after its last non-blank line, keeping a bullet off a paragraph. */
function appendTo(s: Section, line: string): void {
  let at = s.top.length;
  while (at > 0 && s.top[at - 1]!.trim() === '') at--;
  const bullet = /^\s*(?:[-*+]|\d+[.)])\s/.test(line);
  const prev = at > 0 ? s.top[at - 1]! : null;
  const insert = prev !== null && bullet && !/^\s*(?:[-*+]|\d+[.)])\s/.test(prev) ? ['', line] : [line];
  s.top.splice(at, 0, ...insert);
  if (s.rest.length > 0 && s.top[s.top.length - 1]!.trim() !== '') s.top.push('');
}

function check(op: unknown, doc: Doc): { reason: RejectReason } | { op: CurationOp } {
  if (typeof op !== 'object' || op === null || !('op' in op)) return { reason: 'missing_field' };
  const o = op as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : null);
  switch (o['op']) {
    case 'append': {
      const heading = str('heading');
      const line = str('line');
      if (heading === null || line === null) return { reason: 'missing_field' };
      if (heading.trim() === '') return { reason: 'empty_heading' };
      if (line.trim() === '') return { reason: 'empty_line' };
      if (HASH_HEADING.test(line.trim())) return { reason: 'line_starts_with_hash' };
      if (!find(doc, heading)) return { reason: 'heading_missing' };
      return { op: { op: 'append', heading, line: line.trim() } };
    }
    case 'add_heading': {
      const heading = str('heading');
      const lines = Array.isArray(o['lines']) && o['lines'].every((l) => typeof l === 'string') ? (o['lines'] as string[]) : null;
      if (heading === null || lines === null) return { reason: 'missing_field' };
      if (heading.trim() === '') return { reason: 'empty_heading' };
      if (/^#/.test(heading.trim())) return { reason: 'heading_starts_with_hash' };
      const kept = lines.map((l) => l.trim()).filter((l) => l !== '');
      if (kept.length === 0) return { reason: 'empty_lines' };
      if (kept.some((l) => HASH_HEADING.test(l))) return { reason: 'line_starts_with_hash' };
      if (find(doc, heading)) return { reason: 'heading_exists' };
      return { op: { op: 'add_heading', heading: heading.trim(), lines: kept } };
    }
    case 'remove': {
      const heading = str('heading');
      const match = str('match');
      if (heading === null || match === null) return { reason: 'missing_field' };
      if (heading.trim() === '') return { reason: 'empty_heading' };
      if (match.trim() === '') return { reason: 'empty_match' };
      const s = find(doc, heading);
      if (!s) return { reason: 'heading_missing' };
      const hits = s.top.filter((l) => l.trim() !== '' && bare(l).includes(match.trim().toLowerCase()));
      if (hits.length > 1) return { reason: 'multiple_matches' };
      return { op: { op: 'remove', heading, match: match.trim() } };
    }
    default:
      return { reason: 'unknown_op' };
  }
}

function apply(doc: Doc, op: CurationOp): Outcome {
  switch (op.op) {
    case 'append': {
      const s = find(doc, op.heading)!;
      if (s.top.some((l) => l.trim() !== '' && bare(l) === bare(op.line))) return 'noop_dup';
      appendTo(s, op.line);
      return 'applied';
    }
    case 'add_heading': {
      const last = doc.sections[doc.sections.length - 1];
      const tail = last ? (last.rest.length > 0 ? last.rest : last.top) : doc.preamble;
      while (tail.length > 0 && tail[tail.length - 1]!.trim() === '') tail.pop();
      if (tail.length > 0 || last) tail.push('');
      doc.sections.push({ heading: op.heading, headingLine: `## ${op.heading}`, top: ['', ...op.lines], rest: [] });
      doc.finalEol = true;
      return 'applied';
    }
    case 'remove': {
      const s = find(doc, op.heading)!;
      const i = s.top.findIndex((l) => l.trim() !== '' && bare(l).includes(op.match.toLowerCase()));
      if (i < 0) return 'noop_no_match';
      s.top.splice(i, 1);
      return 'applied';
    }
  }
}

/** The ops out of a model's answer: `{"ops": [...]}`, possibly inside a ```json fence; null when it is not that. */
export function parseOps(answer: string): unknown[] | null {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n?```/.exec(answer);
  try {
    const v = JSON.parse((fenced ? fenced[1]! : answer).trim()) as unknown;
    if (typeof v === 'object' && v !== null && Array.isArray((v as { ops?: unknown }).ops)) return (v as { ops: unknown[] }).ops;
  } catch {
    /* not JSON: reported by the caller as not_json */
  }
  return null;
}

/** Validates and applies `ops` to USER.md's `text` in order; `text` is null when nothing is to be written. */
export function curate(text: string, ops: readonly unknown[]): CurationResult {
  const doc = parse(text);
  const results: OpResult[] = [];
  ops.forEach((raw, index) => {
    const c = check(raw, doc);
    if ('reason' in c) results.push({ index, op: raw, outcome: 'rejected', reason: c.reason });
    else results.push({ index, op: raw, outcome: apply(doc, c.op) });
  });
  return { text: results.some((r) => r.outcome === 'applied') ? render(doc) : null, results };
}

/** One audit line (USER.md.audit.jsonl) for a run that applied or rejected anything; null for an all-no-op run. */
export function auditLine(at: string, r: CurationResult): string | null {
  if (!r.results.some((x) => x.outcome === 'applied' || x.outcome === 'rejected')) return null;
  return JSON.stringify({
    at,
    written: r.text !== null,
    ops: r.results.map((x) => ({ op: x.op, outcome: x.outcome, ...(x.reason ? { reason: x.reason } : {}) })),
  });
}
