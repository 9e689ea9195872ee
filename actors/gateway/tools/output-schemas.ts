// What each tool answers, as zod schemas turned into the MCP `outputSchema` the tool listing declares: either the
// tool's result or `{ error: { reason, message } }` (an `isError` result carries the same object, so clients that
// read structuredContent see the reason). Objects pass unknown keys through: a field added later breaks no client.
import { z } from 'zod';
import type { ToolName } from './tool-def.js';

const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape).passthrough();
const hash = z.string().describe('sha256 of the bytes, 64 hex digits');
const commit = z.string().nullable().describe('The git commit that records it; null when nothing changed');
const indexed = z.boolean().describe('Whether search already sees this state');

const also = obj({
  heading_path: z.array(z.string()),
  start_line: z.number(),
  end_line: z.number(),
  snippet: z.string(),
  score: z.number(),
});

const searchResult = also.extend({
  path: z.string().optional(),
  title: z.string(),
  sensitive: z.boolean(),
  source_type: z.string(),
  also: z.array(also).optional(),
});

const link = { target: z.string(), heading: z.string().optional(), alias: z.string().optional(), embed: z.boolean(), line: z.number() };

const fact = obj({
  id: z.number(),
  subject: z.string(),
  predicate: z.string(),
  object: z.string(),
  object_path: z.string().nullable(),
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
  temporary: z.boolean(),
  confidence: z.number().optional(),
  recorded_at: z.string(),
  invalidated_at: z.string().nullable(),
});

/** The successful result of each tool (what POST /v1/tools/<name> answers with 200). */
export const toolResults: Record<ToolName, z.ZodTypeAny> = {
  vault_read: obj({
    path: z.string(),
    content: z.string(),
    mtime_ms: z.number(),
    size: z.number(),
    content_hash: hash,
    sensitive: z.boolean(),
    frontmatter: z.record(z.unknown()).nullable(),
    frontmatter_error: z.string().nullable(),
    indexed,
  }),
  vault_write: obj({
    op: z.literal('write'),
    path: z.string(),
    commit,
    mtime_ms: z.number().nullable(),
    content_hash: hash.nullable(),
    indexed,
  }),
  vault_list: obj({
    folder: z.string(),
    recursive: z.boolean(),
    folders: z.array(z.string()),
    notes: z.array(obj({ path: z.string(), mtime_ms: z.number(), size: z.number() })),
    truncated: z.boolean(),
  }),
  vault_link: obj({
    path: z.string(),
    title: z.string(),
    outgoing: z.array(obj({ ...link, path: z.string(), via: z.enum(['path', 'name', 'alias']) })),
    unresolved: z.array(
      obj({ ...link, reason: z.enum(['missing', 'ambiguous', 'attachment']), candidates: z.array(z.string()).optional() }),
    ),
    backlinks: z.array(
      obj({
        path: z.string(),
        title: z.string(),
        line: z.number(),
        heading: z.string().optional(),
        alias: z.string().optional(),
        embed: z.boolean(),
      }),
    ),
  }),
  vault_undo_last: obj({ op: z.literal('undo'), paths: z.array(z.string()), commit, indexed }),
  memory_search: obj({
    results: z.array(searchResult),
    mode: z.enum(['hybrid', 'bm25', 'vector']),
    degraded: z.string().nullable().describe('Why the requested mode could not run as asked'),
    took_ms: z.number(),
    index: obj({}).describe('The index state: pending files, vector search, store'),
  }),
  memory_remember: obj({ fact_id: z.string(), path: z.string(), line: z.number(), commit, at: z.string(), indexed }),
  memory_forget: obj({
    forgotten: z.array(obj({ fact_id: z.string().optional(), episode_id: z.string().optional(), text: z.string().optional() })),
    commit: commit.optional(),
    path: z.string().nullable().optional(),
    indexed: indexed.optional(),
    candidates: z.array(obj({ fact_id: z.string(), text: z.string(), score: z.number() })).optional(),
    confirm_needed: z.string().optional(),
  }),
  memory_add_fact: obj({
    outcome: z.enum(['added', 'superseded', 'noop_dup']),
    id: z.number().nullable().optional(),
    path: z.string().optional(),
    line: z.number().optional(),
    superseded: z.array(z.number()).optional(),
    fact: fact.optional().describe('noop_dup: the fact already held'),
    commit,
    indexed: indexed.optional(),
  }),
  memory_invalidate_fact: obj({ id: z.number(), path: z.string(), line: z.number(), valid_until: z.string(), commit, indexed }),
  memory_delete_fact: obj({ id: z.number(), path: z.string(), line: z.number(), commit, indexed }),
  memory_facts: obj({ at: z.string(), facts: z.array(fact) }),
  memory_timeline: obj({ entity: z.string(), facts: z.array(fact) }),
  memory_context: obj({
    text: z.string(),
    chars: z.number(),
    max_chars: z.number(),
    truncated: z.boolean(),
    sections: z.array(
      obj({
        name: z.enum(['user', 'facts', 'channel', 'dated', 'recalled']),
        title: z.string(),
        dropped: z.number(),
        items: z.array(obj({ text: z.string(), source: z.string() })),
      }),
    ),
  }),
};

/** What an `isError` result's structuredContent holds. */
export const toolErrorResult = z
  .object({
    error: z.object({
      reason: z.string().describe('A stable reason code: bad_request, not_found, conflict, unavailable, …'),
      message: z.string().describe('What was wrong and what to do'),
    }),
  })
  .strict();
