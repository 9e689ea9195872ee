// memory_context (and POST /v1/context): what an agent puts in its prompt — USER.md, known facts (the owner's, and
// those about or pointing at what the query names), the channel's CHANNEL.md, the fact log of the last days and
// search results for the query — gathered here, ordered and cut to size by actors/knowledge/context.ts.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isSensitive, readFrontmatter } from '../../chunker/frontmatter.js';
import { isTemporary } from '../../knowledge/add-fact.js';
import { assembleContext, type ContextItem, type ContextSection } from '../../knowledge/context.js';
import { factDate } from '../../knowledge/fact-lines.js';
import { localDay } from '../../memory/fact-log.js';
import { factNames, factsAt, type FactRow } from '../../store-writer/facts-reader.js';
import type { ToolDeps } from './deps.js';
import { def, type ToolDef } from './tool-def.js';
import type { CallContext, ToolOutcome } from './types.js';

const MAX_NAMES = 20;

export const contextArgs = z
  .object({
    query: z.string().max(4000).optional().describe('What the conversation is about now: facts it names and search results for it'),
    session_id: z.string().min(1).max(200).optional().describe('This conversation: its own chat turns are not recalled'),
    channel: z
      .string()
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} _.-]{0,99}$/u, 'channel is a plain name (letters, digits, space _ . -)')
      .optional()
      .describe('Adds Channels/<channel>/CHANNEL.md'),
    max_chars: z.number().int().min(200).max(1_000_000).optional().describe('Budget for the whole context (default from config)'),
  })
  .strict();

/** A note's text when it exists and the caller may read it (sensitive notes only when the owner allows). */
async function readAllowed(d: ToolDeps, rel: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path.join(d.vault, ...rel.split('/')), 'utf8');
  } catch {
    return null;
  }
  const fm = readFrontmatter(text.replace(/^\uFEFF/, '').split('\n'));
  if (isSensitive(fm) && !d.mayReadSensitive) return null;
  return text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .slice(fm.bodyStartLine)
    .join('\n')
    .trim();
}

function factText(f: FactRow, temporary: ReadonlySet<string>): string {
  const when = [f.validFrom !== null ? `from ${factDate(f.validFrom)}` : '', f.validUntil !== null ? `until ${factDate(f.validUntil)}` : '']
    .filter(Boolean)
    .join(' ');
  return `- ${f.subject} · ${f.predicate} · ${f.object}${when ? ` (${when})` : ''}${isTemporary(f, temporary) ? ' (temporary)' : ''}`;
}

function knownFacts(d: ToolDeps, query: string | undefined, now: number): ContextItem[] {
  const db = d.view.db;
  const q = { at: now, singleValued: d.knowledge.singleValued, includeSensitive: d.mayReadSensitive };
  const rows: FactRow[] = factsAt(db, { ...q, entity: d.knowledge.owner });
  if (query) {
    const lower = query.toLowerCase();
    const named = factNames(db)
      .filter((n) => n.length >= 3 && n.toLowerCase() !== d.knowledge.owner.toLowerCase() && lower.includes(n.toLowerCase()))
      .sort((a, b) => b.length - a.length)
      .slice(0, MAX_NAMES);
    for (const n of named) rows.push(...factsAt(db, { ...q, entity: n }), ...factsAt(db, { ...q, object: n }));
  }
  const seen = new Set<number>();
  return rows
    .filter((f) => !seen.has(f.id) && seen.add(f.id))
    .map((f) => ({ text: factText(f, d.knowledge.temporary), source: `${f.path}:${f.line}` }));
}

/** The fact log of the last days in the order it was written (day, then line): an update follows what it changes. */
function datedMemories(d: ToolDeps, now: number): ContextItem[] {
  const days = d.knowledge.autoLoadDays;
  if (days === 0) return [];
  // day logs are named by the local date (fact-log.ts localDay): count the days back on the same calendar, not UTC's
  const today = new Date(now);
  const first = localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1), 12).getTime()).date;
  return d.view.reader
    .factLinesFrom(first)
    .filter((r) => r.text.trim())
    .map((r) => ({ text: `- [${r.factId.slice(0, 10)}] ${r.text.trim()}`, source: r.factId }));
}

async function recalled(d: ToolDeps, ctx: CallContext, a: z.infer<typeof contextArgs>, skip: Set<string>): Promise<ContextItem[]> {
  if (!a.query?.trim() || d.knowledge.recallK === 0) return [];
  const hits = await d.search({ query: a.query, k: d.knowledge.recallK }, ctx);
  const items: ContextItem[] = [];
  for (const h of hits.results) {
    const source = h.fact_id ?? h.episode_id ?? h.path ?? h.title;
    if (skip.has(source) || (a.session_id && h.session_id === a.session_id)) continue;
    items.push({ text: `- ${h.snippet.replace(/\s+/g, ' ').trim()} (${h.path ?? h.episode_id ?? h.title})`, source });
  }
  return items;
}

export async function buildContext(d: ToolDeps, ctx: CallContext, a: z.infer<typeof contextArgs>): Promise<ToolOutcome> {
  const now = Date.now();
  const sections: ContextSection[] = [];
  const user = await readAllowed(d, 'USER.md');
  if (user) sections.push({ name: 'user', title: 'About the user (USER.md)', items: [{ text: user, source: 'USER.md' }] });
  sections.push({ name: 'facts', title: 'Known facts', items: knownFacts(d, a.query, now) });
  const channelPath = a.channel === undefined ? null : `Channels/${a.channel}/CHANNEL.md`;
  const channel = channelPath ? await readAllowed(d, channelPath) : null;
  if (channel && channelPath)
    sections.push({ name: 'channel', title: `Channel ${a.channel} (${channelPath})`, items: [{ text: channel, source: channelPath }] });
  const dated = datedMemories(d, now);
  sections.push({ name: 'dated', title: `Memories of the last ${d.knowledge.autoLoadDays} days`, items: dated });
  const skip = new Set<string>(['USER.md', ...(channelPath ? [channelPath] : []), ...dated.map((i) => i.source)]);
  sections.push({ name: 'recalled', title: 'Recalled memories', items: await recalled(d, ctx, a, skip) });
  const out = assembleContext(sections, a.max_chars ?? d.knowledge.maxChars);
  return {
    ok: true,
    result: {
      text: out.text,
      chars: out.chars,
      max_chars: out.maxChars,
      truncated: out.truncated,
      sections: out.sections.map((s) => ({ name: s.name, title: s.title, dropped: s.dropped, items: s.items })),
    },
  };
}

export function contextTool(d: ToolDeps): ToolDef<z.ZodTypeAny> {
  return def({
    name: 'memory_context',
    title: 'Context for a prompt',
    description:
      "What to put in a prompt, each part with its sources: USER.md, known facts (the owner's and those the query names), the channel's CHANNEL.md, memories of the last days, and search results for the query. Over max_chars, recalled memories go first, then facts, then dated memories; USER.md and CHANNEL.md are always kept. Also POST /v1/context.",
    schema: contextArgs,
    annotations: { title: 'Context for a prompt', readOnlyHint: true, openWorldHint: false },
    writes: false,
    run: (a, ctx) => buildContext(d, ctx, a),
  });
}
