// The memory tool family: memory_remember appends a fact to today's log (through the git writer, a commit) and
// memory_forget forgets a fact (a tombstone, also a commit, so vault_undo_last takes it back) or an episode by id (a
// tombstone in the journal). Nothing is deduplicated or dropped at write time: an update is a new fact beside the old.
import { z } from 'zod';
import path from 'node:path';
import { factCopies, formatFactLine, normaliseFact, parseFactLine, parseTombstones } from '../../memory/fact-log.js';
import { readIfPresent } from '../../memory/read-if-present.js';
import type { ToolDeps } from './deps.js';
import { def, type ToolDef } from './tool-def.js';
import { factWho, ownsWork } from '../agents/guard.js';
import { toolFail, type CallContext, type IndexedWant, type ToolOutcome, type WriteBackend } from './types.js';

/** How a fact is waited on in the gateway's IndexWaiter (a vault path never holds a NUL). */
export const FACT_KEY = '\u0000fact:';
const MAX_FACT_CHARS = 2_000;
const FACT_ID = /^\d{4}-\d{2}-\d{2}#[0-9a-f]{8}$/;

const str = (name: string) => z.string({ required_error: `${name} is required`, invalid_type_error: `${name} must be a string` });

const rememberArgs = z
  .object({
    content: str('content').describe('The fact, one line of plain text, e.g. "Alice moved to Lisbon in May"'),
    category: str('category')
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} _-]{0,39}$/u, 'category must be 1-40 letters, digits, spaces, _ or -')
      .optional()
      .describe('A short category, e.g. "people" or "preference"'),
    tags: z
      .array(
        str('tags[]')
          .regex(/^#?[\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*$/u, 'a tag is letters, digits, _ / - (not only digits)')
          .max(64),
        { invalid_type_error: 'tags must be an array of strings' },
      )
      .max(20, 'at most 20 tags')
      .optional()
      .describe('Tags, written #tag after the fact'),
    session_id: str('session_id').min(1).max(200).optional().describe('The conversation this fact came from: names the log header'),
    wait_indexed: z.boolean().optional().describe('Wait until memory_search finds the fact; the answer says `indexed`'),
  })
  .strict();

const forgetArgs = z
  .object({
    fact_id: str('fact_id')
      .regex(FACT_ID, 'fact_id looks like "2026-05-01#a1b2c3d4" (as memory_remember and search results give it)')
      .optional(),
    query: str('query').min(1).max(1000).optional().describe('Find the fact to forget by its words (with confirm: true it is forgotten)'),
    confirm: z.boolean().optional().describe('With query: forget the best match (without it, the candidates are listed)'),
    episode_id: str('episode_id')
      .min(3)
      .max(500)
      .optional()
      .describe('A chat message or turn, a task or a correction: chat:<session>:<message>, task:<id>, …'),
    reason: str('reason').max(500).optional().describe('Why: recorded with the tombstone'),
  })
  .strict()
  .refine((a) => [a.fact_id, a.query, a.episode_id].filter((x) => x !== undefined).length === 1, {
    message: 'give exactly one of fact_id, query or episode_id',
  });

interface Candidate {
  fact_id: string;
  text: string;
  score: number;
}

async function remember(d: ToolDeps, w: WriteBackend, ctx: CallContext, a: z.infer<typeof rememberArgs>): Promise<ToolOutcome> {
  if (a.content.includes('\u0000')) return toolFail('invalid_content', 'content holds a NUL character; a fact is text');
  const content = a.content.replace(/\s+/g, ' ').trim(); // one line: line breaks become spaces
  if (content === '') return toolFail('bad_request', 'content is empty');
  if (content.length > MAX_FACT_CHARS)
    return toolFail(
      'too_large',
      `content is ${content.length} characters, over ${MAX_FACT_CHARS}; a fact is one line — split it or write a note`,
    );
  const tags = [...new Set((a.tags ?? []).map((t) => t.replace(/^#/, '')))];
  if (!parseFactLine(formatFactLine({ content, category: a.category ?? null, tags })))
    return toolFail('bad_request', 'content holds nothing but tags; a fact needs words (tags go in `tags`)');
  const r = await w.remember(
    { content, ...(a.category ? { category: a.category } : {}), tags, who: factWho(ctx.principal, ctx.agent, a.session_id) },
    { agent: ctx.agent },
  );
  if (!r.ok) return toolFail(r.reason, r.message);
  const key = `${FACT_KEY}${r.fact_id}`;
  const indexed = a.wait_indexed
    ? await d.waitIndexed(key, await lineIndexed(d, r), d.waitTimeoutMs)
    : d.view.reader.document('fact', r.fact_id) !== null;
  return { ok: true, result: { fact_id: r.fact_id, path: r.path, line: r.line, commit: r.commit, at: r.at, indexed } };
}

/**
 * What the index holds once this append is in it: the fact's document with a chunk at this line (or at the earlier
 * copy of the very same line, which stands for it). Not a hash of the document's lines as the log holds them now:
 * copies appended at once by other calls (other tags: one document of every copy) are indexed together, so the
 * document never held that hash, and the answer waited the whole timeout to say `indexed: false`.
 */
async function lineIndexed(d: ToolDeps, r: { fact_id: string; path: string; line: number }): Promise<IndexedWant> {
  const [log, stones] = await Promise.all([
    readIfPresent(path.join(d.vault, r.path)),
    d.tombstones ? readIfPresent(path.join(d.vault, d.tombstones)) : null,
  ]);
  const date = r.fact_id.slice(0, r.fact_id.indexOf('#'));
  const copies = log ? factCopies(log.toString('utf8'), date, parseTombstones(stones?.toString('utf8') ?? '')).get(r.fact_id) : undefined;
  const mine = copies?.find((c) => c.line === r.line);
  if (!copies || !mine) return '*'; // the log changed under it (a person's edit): any document of the fact will do
  const line = copies.find((c) => c.text === mine.text)!.line; // distinctLines keeps the first of equal lines
  return (current) => current !== null && d.view.reader.factChunkAt(r.fact_id, line);
}

async function forgetFact(d: ToolDeps, ctx: CallContext, id: string, reason: string | undefined): Promise<ToolOutcome> {
  const w = d.writes;
  const off = !w ? 'this process has no write path' : ((a) => (a.ok ? null : a.reason))(w.available());
  if (!w || off) return toolFail('unavailable', `facts are forgotten through the vault's git writer, which is off: ${off}`);
  const days = d.view.reader.factOnEveryDay(id);
  const doc = days.find((f) => f.factId === id);
  if (!doc)
    return toolFail('not_found', `no fact ${id} is in the index (forgotten already, or never remembered); search with source_type "fact"`);
  // a tombstone hides every copy of the day's fact, so each must be the caller's (another agent may have logged it again)
  if (!doc.whos.every((who) => ownsWork(ctx.principal, who)))
    return toolFail('forbidden', `fact ${id} was remembered by another agent; only an admin credential may forget it`);
  const text = doc.norm ?? normaliseFact(String(doc.title));
  // a tombstone names the text, not the id: it also hides the same fact logged on other days, so those must be the
  // caller's too (else remembering another agent's fact today and forgetting that copy would forget theirs)
  const others = days.filter((o) => o.factId !== id && o.norm === text && !o.whos.every((who) => ownsWork(ctx.principal, who)));
  if (others.length > 0)
    return toolFail(
      'forbidden',
      `forgetting ${id} would also forget ${others.map((o) => o.factId).join(', ')} (the same fact, remembered by another agent); only an admin credential may forget it`,
    );
  const line = JSON.stringify({ fact: text, fact_id: id, at: new Date().toISOString(), agent: ctx.agent, ...(reason ? { reason } : {}) });
  const r = await w.forget([line], { agent: ctx.agent, ...(reason ? { reason } : {}) });
  if (!r.ok) return toolFail(r.reason, r.message);
  d.metrics.tombstones.inc({ source_type: 'fact' });
  // answered once search no longer finds it (the memory actor re-reads the logs as soon as the commit is made)
  const gone = await d.waitIndexed(`${FACT_KEY}${id}`, null, d.waitTimeoutMs);
  return { ok: true, result: { forgotten: [{ fact_id: id, text }], commit: r.commit, path: r.paths[0] ?? null, indexed: gone } };
}

async function forget(d: ToolDeps, ctx: CallContext, a: z.infer<typeof forgetArgs>): Promise<ToolOutcome> {
  if (a.episode_id !== undefined) {
    if (!d.episodes) return toolFail('unavailable', 'no memory actor runs in this process');
    // the memory actor knows who recorded each episode, indexed or not: an id that is nowhere is not_found, another's forbidden
    const p = ctx.principal;
    const r = await d.episodes.forget(a.episode_id, ctx.agent, p?.kind === 'agent' && p.scope !== 'admin');
    if (!r.ok) return toolFail(r.reason === 'disk_full' ? 'disk_full' : r.reason, r.message);
    return { ok: true, result: { forgotten: r.forgotten.map((episode_id) => ({ episode_id })) } };
  }
  if (a.fact_id !== undefined) return forgetFact(d, ctx, a.fact_id, a.reason);
  // by query: facts only — a vault note is forgotten by editing it (vault_write, a commit), never in the index alone.
  // By keyword: a vector list always has a nearest fact (min-max scored 1), so a query sharing no word with any fact
  // would put an unrelated one first, and confirm would forget it
  // not a recall (no caller: kept out of the recall log): the words of what is being forgotten must not stay on disk
  // there, nor count the fact as recalled for consolidation
  const hits = await d.search({ query: a.query!, k: 5, mode: 'bm25', filters: { source_type: 'fact' } });
  const candidates: Candidate[] = hits.results.map((h) => ({ fact_id: h.fact_id ?? '', text: h.snippet, score: h.score }));
  if (candidates.length === 0) return toolFail('not_found', `no remembered fact matches "${a.query}"`);
  if (!a.confirm)
    return {
      ok: true,
      result: {
        forgotten: [],
        candidates,
        confirm_needed: 'pass confirm: true to forget the first candidate, or fact_id to forget another',
      },
    };
  return forgetFact(d, ctx, candidates[0]!.fact_id, a.reason);
}

/** The memory tools' table entries. */
export function memoryTools(d: ToolDeps): Array<ToolDef<z.ZodTypeAny>> {
  return [
    def({
      name: 'memory_remember',
      title: 'Remember a fact',
      description:
        'Append one fact to today\'s fact log (Memory/Log/YYYY-MM-DD.md) as a git commit, indexed for memory_search (source_type "fact"). Nothing is deduplicated: to record a change ("Alice moved to Lisbon"), remember the new fact — the old one stays, and both are found. Returns fact_id, path, line and commit.',
      schema: rememberArgs,
      // appends (never replaces), and every call appends again: not idempotent, not destructive
      annotations: { title: 'Remember a fact', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      writes: true,
      run: (a, ctx, w) => remember(d, w!, ctx, a),
    }),
    def({
      name: 'memory_forget',
      title: 'Forget a fact or an episode',
      description:
        'Forget a remembered fact (by fact_id, or by query with confirm: true) with a tombstone in Memory/tombstones.jsonl — a commit vault_undo_last can revert; the log is never edited and the fact stays forgotten after any reindex. Or forget a chat message, turn, task or correction by episode_id. Vault notes are forgotten by editing them.',
      schema: forgetArgs,
      annotations: {
        title: 'Forget a fact or an episode',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
      writes: false, // episodes are forgotten without the git writer; a fact forget says `unavailable` when it is off
      run: (a, ctx) => forget(d, ctx, a),
    }),
  ];
}
