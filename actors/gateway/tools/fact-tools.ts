// The knowledge tool family: memory_add_fact, memory_invalidate_fact and memory_delete_fact edit fact lines in notes
// (through the git writer: one commit each), memory_facts and memory_timeline read knowledge_facts.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseFactDate, predicateOf } from '../../chunker/inline-fields.js';
import { isTemporary, planAddFact, sharedLineProblem } from '../../knowledge/add-fact.js';
import { factDate, factProblem, removeLine, setUntil } from '../../knowledge/fact-lines.js';
import { currentFactAt, factById, factsAt, factsOnLine, timeline, type FactRow } from '../../store-writer/facts-reader.js';
import { sha256Hex } from '../../../messages/hash.js';
import type { ToolDeps } from './deps.js';
import { def, type ToolDef } from './tool-def.js';
import { sensitiveRemedy, toolFail, type CallContext, type ToolOutcome, type WriteBackend } from './types.js';

const str = (name: string) => z.string({ required_error: `${name} is required`, invalid_type_error: `${name} must be a string` });
const date = (name: string) =>
  str(name).refine((s) => parseFactDate(s) !== null, `${name} must be a date like 2026-02-28 or an ISO time with a zone`);
// trimmed: "Bob " is Bob, not a second entity note `Bob .md`; control characters (a NUL) never reach a file name
const subject = str('subject')
  .trim()
  .min(1, 'subject is empty')
  .max(200)
  .regex(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    /^[^\u0000-\u001f\u007f/\\:*?"<>|#^[\]]+$/,
    'subject is a note title: no line breaks or control characters nor / \\ : * ? " < > | # ^ [ ]',
  )
  // "Maya Chen.md" is Maya Chen's file name: taken as a title it made a second note, `Memory/Entities/Maya Chen.md.md`
  .refine((s) => !/\.md$/i.test(s), 'subject is a note title, not a file name: drop the ".md"');
const factId = z.number({ required_error: 'id is required', invalid_type_error: 'id must be a number' }).int().positive();

/** memory_add_fact's arguments (the nightly extraction checks the model's triples with it too). */
export const addArgs = z
  .object({
    subject: subject.describe('Whom or what the fact is about: a note title, e.g. "Maya Chen"'),
    predicate: str('predicate').describe('snake_case relation, e.g. works_at, lives_in, prefers'),
    object: str('object').min(1).max(500).describe('The value: plain text, or a [[Note]] link'),
    valid_from: date('valid_from').optional().describe('When it became true (YYYY-MM-DD)'),
    valid_until: date('valid_until').optional().describe('When it stopped being true (exclusive)'),
    temporary: z.boolean().optional().describe('A passing state (a trip, a visit): never supersedes'),
  })
  .strict();
const invalidateArgs = z.object({ id: factId, at: date('at').optional().describe('When it stopped (default today)') }).strict();
const deleteArgs = z.object({ id: factId }).strict();
const factsArgs = z
  .object({
    entity: str('entity').min(1).max(200).optional(),
    // read as the notes' keys are: `Works-At` is works_at (it found nothing before)
    predicate: str('predicate').trim().min(1).max(64).transform(predicateOf).optional(),
    at: date('at').optional().describe('The instant to answer for (default now)'),
  })
  .strict();
const timelineArgs = z.object({ entity: str('entity').min(1).max(200) }).strict();

/** A fact as tools answer it: dates as ISO text, temporary as adding takes it (its line's flag or its predicate). */
export function factJson(f: FactRow, temporary: ReadonlySet<string>): Record<string, unknown> {
  const iso = (ms: number | null) => (ms === null ? null : factDate(ms));
  return {
    id: f.id,
    subject: f.subject,
    predicate: f.predicate,
    object: f.object,
    object_path: f.objectPath,
    valid_from: iso(f.validFrom),
    valid_until: iso(f.validUntil),
    temporary: isTemporary(f, temporary),
    ...(f.confidence !== null ? { confidence: f.confidence } : {}),
    recorded_at: new Date(f.recordedAt).toISOString(),
    invalidated_at: f.invalidatedAt === null ? null : new Date(f.invalidatedAt).toISOString(),
    path: f.path,
    line: f.line,
    ...(f.problem ? { problem: f.problem } : {}),
  };
}

const dayOf = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), new Date(ms).getUTCDate());

/** What memory_add_fact needs: the gateway's ToolDeps, or the same parts built in the scheduler (nightly extraction). */
export type AddFactDeps = Pick<ToolDeps, 'vault' | 'view' | 'knowledge' | 'waitIndexed' | 'waitTimeoutMs'>;

async function readNote(d: Pick<ToolDeps, 'vault'>, rel: string): Promise<string | null> {
  try {
    return await readFile(path.join(d.vault, ...rel.split('/')), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Writes `text` over `rel` (expected to still hold `before`), then waits until the index has read it. */
async function commitNote(
  d: AddFactDeps,
  w: Pick<WriteBackend, 'mutate'>,
  ctx: Pick<CallContext, 'agent' | 'principal'>,
  rel: string,
  before: string | null,
  text: string,
  reason: string,
): Promise<ToolOutcome<{ commit: string | null; indexed: boolean }>> {
  const r = await w.mutate(
    { op: 'write', path: rel, content: text, ...(before !== null ? { expectedHash: sha256Hex(Buffer.from(before, 'utf8')) } : {}) },
    // an agent's own --sensitive grant, as vault_write carries it: a sensitive note's facts are edited only with it
    { agent: ctx.agent, reason, ...(ctx.principal?.kind === 'agent' ? { mayReadSensitive: ctx.principal.sensitive } : {}) },
  );
  if (!r.ok) return toolFail(r.reason, r.message);
  const indexed = await d.waitIndexed(r.paths[0] ?? rel, r.contentHash, d.waitTimeoutMs);
  return { ok: true, result: { commit: r.commit, indexed } };
}

/** The note a subject's facts go into: where its facts are, else the note with that title, else an entity note. */
function subjectNote(d: AddFactDeps, subject: string, current: readonly FactRow[]): string {
  if (current[0]) return current[0].path;
  return d.view.reader.noteTitled(subject) ?? `${d.knowledge.entitiesFolder}/${subject}.md`;
}

export async function addFact(
  d: AddFactDeps,
  w: Pick<WriteBackend, 'mutate'>,
  ctx: Pick<CallContext, 'agent' | 'principal'>,
  a: z.infer<typeof addArgs>,
): Promise<ToolOutcome> {
  const fact = {
    predicate: a.predicate,
    object: a.object.replace(/\s+/g, ' ').trim(),
    validFrom: a.valid_from === undefined ? null : parseFactDate(a.valid_from),
    validUntil: a.valid_until === undefined ? null : parseFactDate(a.valid_until),
    temporary: a.temporary === true,
  };
  const problem = factProblem(fact);
  if (problem) return toolFail('bad_request', problem);
  const now = Date.now();
  const k = d.knowledge;
  // an agent without --sensitive is not shown a sensitive note's facts: not even as a noop_dup answer to a guess
  const includeSensitive = ctx.principal?.kind !== 'agent' || ctx.principal.sensitive;
  const mine = factsAt(d.view.db, { entity: a.subject, at: now, singleValued: k.singleValued, includeSensitive });
  const current = mine.filter((f) => f.predicate === fact.predicate);
  // a fact dated away from now (a retried add of next month's move) is a duplicate of what holds when it begins
  const atStart =
    fact.validFrom === null
      ? []
      : factsAt(d.view.db, {
          entity: a.subject,
          predicate: fact.predicate,
          at: fact.validFrom,
          singleValued: k.singleValued,
          includeSensitive,
        });
  const rel = subjectNote(d, a.subject, current.length > 0 ? current : mine);
  const before = await readNote(d, rel);
  const plan = planAddFact({
    subject: a.subject,
    fact,
    path: rel,
    text: before,
    current,
    atStart,
    singleValued: k.singleValued,
    temporary: k.temporary,
    today: dayOf(now),
    lineMates: (f) => lineMates(d, f),
  });
  if (plan.kind === 'noop_dup')
    return { ok: true, result: { outcome: 'noop_dup', fact: factJson(plan.existing, k.temporary), commit: null } };
  if (plan.kind === 'conflict') return toolFail('conflict', plan.message);
  const what = `${a.subject}: ${fact.predicate}:: ${fact.object}`;
  const r = await commitNote(d, w, ctx, rel, before, plan.text, plan.superseded.length > 0 ? `supersede ${what}` : `add fact ${what}`);
  if (!r.ok) return r;
  const id = currentFactAt(d.view.db, rel, plan.line, d.view.limits.userId);
  return {
    ok: true,
    result: {
      outcome: plan.superseded.length > 0 ? 'superseded' : 'added',
      id: id ?? null,
      path: rel,
      line: plan.line,
      superseded: plan.superseded.map((f) => f.id),
      ...r.result,
    },
  };
}

/** The other current facts on `f`'s line. */
function lineMates(d: Pick<ToolDeps, 'view'>, f: FactRow): FactRow[] {
  return factsOnLine(d.view.db, f.path, f.line, d.view.limits.userId).filter((m) => m.id !== f.id);
}

/** The live fact `id` and its note's text, checked to still hold it on its line, and to hold it alone (`would`: what
 * the edit would do to other facts there). */
async function liveFact(d: ToolDeps, ctx: CallContext, id: number, would: string): Promise<ToolOutcome<{ f: FactRow; text: string }>> {
  const f = factById(d.view.db, id);
  if (!f || f.invalidatedAt !== null)
    return toolFail('not_found', `no current fact ${id}: ${f ? 'its line is gone from its note' : 'never recorded'}; see memory_timeline`);
  if (f.sensitive && !d.mayReadSensitive)
    return toolFail(
      'sensitive',
      `fact ${id} is in a sensitive note, which this caller may not read or edit; ${sensitiveRemedy(ctx.principal)}`,
    );
  const text = await readNote(d, f.path);
  if (text === null || !(text.split(/\r?\n/)[f.line - 1] ?? '').includes(`${f.predicate}::`))
    return toolFail('conflict', `line ${f.line} of ${f.path} no longer holds fact ${id}: the index is behind the note; retry in a moment`);
  const shared = sharedLineProblem(f, lineMates(d, f), would);
  if (shared) return toolFail('conflict', shared);
  return { ok: true, result: { f, text } };
}

async function invalidateFact(d: ToolDeps, w: WriteBackend, ctx: CallContext, a: z.infer<typeof invalidateArgs>): Promise<ToolOutcome> {
  const got = await liveFact(d, ctx, a.id, 'an [until::] on it would end');
  if (!got.ok) return got;
  const { f, text } = got.result;
  const at = a.at === undefined ? dayOf(Date.now()) : parseFactDate(a.at)!;
  if (f.validFrom !== null && at <= f.validFrom)
    return toolFail('bad_request', `at must be after the fact's valid_from (${factDate(f.validFrom)})`);
  const r = await commitNote(
    d,
    w,
    ctx,
    f.path,
    text,
    setUntil(text, f.line, at)!,
    `invalidate fact ${f.id} (${f.subject}: ${f.predicate})`,
  );
  if (!r.ok) return r;
  // the edited line is a new row (the old one is invalidated): answer its id, which the next call on this fact needs
  const id = currentFactAt(d.view.db, f.path, f.line, d.view.limits.userId);
  return {
    ok: true,
    result: { id: id ?? f.id, previous_id: f.id, path: f.path, line: f.line, valid_until: factDate(at), ...r.result },
  };
}

async function deleteFact(d: ToolDeps, w: WriteBackend, ctx: CallContext, a: z.infer<typeof deleteArgs>): Promise<ToolOutcome> {
  const got = await liveFact(d, ctx, a.id, 'removing it would remove');
  if (!got.ok) return got;
  const { f, text } = got.result;
  const r = await commitNote(d, w, ctx, f.path, text, removeLine(text, f.line)!, `delete fact ${f.id} (${f.subject}: ${f.predicate})`);
  if (!r.ok) return r;
  return { ok: true, result: { id: f.id, path: f.path, line: f.line, ...r.result } };
}

const readOnly = (title: string) => ({ title, readOnlyHint: true, openWorldHint: false });
const writing = (title: string, destructive: boolean) => ({
  title,
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: false,
  openWorldHint: false,
});

/** The knowledge tools' table entries. */
export function factTools(d: ToolDeps): Array<ToolDef<z.ZodTypeAny>> {
  const k = d.knowledge;
  return [
    def({
      name: 'memory_add_fact',
      title: 'Add a fact',
      description: `Record a fact about a subject as a line \`- predicate:: object\` under the "## Facts" heading of the note titled subject (or ${k.entitiesFolder}/<subject>.md), one commit. A new value of a single-valued predicate (${[...k.singleValued].join(', ')}) supersedes the current one: the old line gets [until:: date], history is kept. Temporary facts never supersede. A near-duplicate of a fact current now, or when the new one begins, is not written (outcome noop_dup).`,
      schema: addArgs,
      annotations: writing('Add a fact', false),
      writes: true,
      run: (a, ctx, w) => addFact(d, w!, ctx, a),
    }),
    def({
      name: 'memory_invalidate_fact',
      title: 'End a fact',
      description:
        'Mark a fact as no longer true from a date (default today) by adding [until:: date] to its line: a commit; the fact stays in the timeline.',
      schema: invalidateArgs,
      annotations: writing('End a fact', false),
      writes: true,
      run: (a, ctx, w) => invalidateFact(d, w!, ctx, a),
    }),
    def({
      name: 'memory_delete_fact',
      title: 'Delete a fact line',
      description:
        "Remove a wrong fact's line from its note (a commit vault_undo_last can revert). To record that a fact ended, use memory_invalidate_fact instead.",
      schema: deleteArgs,
      annotations: writing('Delete a fact line', true),
      writes: true,
      run: (a, ctx, w) => deleteFact(d, w!, ctx, a),
    }),
    def({
      name: 'memory_facts',
      title: 'Facts true at an instant',
      description:
        'The facts current at an instant (default now), optionally about one entity (a note title) and one predicate: "where does Maya work?", or with at, "where did she work in 2024?".',
      schema: factsArgs,
      annotations: readOnly('Facts true at an instant'),
      writes: false,
      run: async (a) => {
        const at = a.at === undefined ? Date.now() : parseFactDate(a.at)!;
        const rows = factsAt(d.view.db, {
          ...(a.entity !== undefined ? { entity: a.entity } : {}),
          ...(a.predicate !== undefined ? { predicate: a.predicate } : {}),
          at,
          singleValued: k.singleValued,
          includeSensitive: d.mayReadSensitive,
        });
        return { ok: true, result: { at: new Date(at).toISOString(), facts: rows.map((f) => factJson(f, k.temporary)) } };
      },
    }),
    def({
      name: 'memory_timeline',
      title: 'Timeline of an entity',
      description: 'Every fact about an entity or pointing at it, ended and removed ones included, in time order.',
      schema: timelineArgs,
      annotations: readOnly('Timeline of an entity'),
      writes: false,
      run: async (a) => ({
        ok: true,
        result: {
          entity: a.entity,
          facts: timeline(d.view.db, a.entity, { includeSensitive: d.mayReadSensitive }).map((f) => factJson(f, k.temporary)),
        },
      }),
    }),
  ];
}
