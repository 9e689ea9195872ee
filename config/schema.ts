// The configuration schema: one YAML file, validated with zod; unknown keys are errors so typos never pass silently.
import { z } from 'zod';
import { MATCH_BUDGET } from '../actors/gateway/match-budget.js';
import { knowledgeSchema } from './schema-knowledge.js';
import { llmSchema } from './schema-llm.js';
import { calendarSchema, schedulerSchema, skillsSchema, templatesSchema } from './schema-skills.js';
import { webdavSchema } from './schema-webdav.js';
import { heapSchema } from './schema-heap.js';
import { agentsSchema, auditSchema } from './schema-agents.js';
import { dreamSchema } from './schema-dream.js';
import { curationSchema } from './schema-curation.js';

const hostPort = z
  .string()
  .regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d{1,5}$/, 'must be HOST:PORT, e.g. 127.0.0.1:7411')
  // five digits passed the pattern up to 99999, and the gateway's thread failed at start (ERR_SOCKET_BAD_PORT, exit 1)
  .refine((v) => !/:\d{1,5}$/.test(v) || Number(v.slice(v.lastIndexOf(':') + 1)) <= 65535, 'the port must be at most 65535');

export const DEFAULT_IGNORE = ['.obsidian/**', '.git/**', '.memvault/**', '.trash/**', 'Templates/**'];

const watcherSchema = z
  .object({
    ignore: z.array(z.string().min(1)).default(DEFAULT_IGNORE),
    debounce_ms: z.number().int().min(0).max(60_000).default(200),
    rename_window_ms: z.number().int().min(0).max(60_000).default(2_000),
  })
  .strict();

const chunkerSchema = z
  .object({
    max_tokens: z.number().int().min(16).max(8192).optional(), // default: the model's own window
    overlap_tokens: z.number().int().min(0).max(512).default(16),
    max_file_bytes: z.number().int().min(1024).default(2_000_000),
  })
  .strict();

/** A path inside a hub repository: relative, no `..`, no backslashes. */
const repoPath = z
  .string()
  .min(1)
  .regex(/^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\\\0]+$/, 'must be a path inside the repository, e.g. onnx/model.onnx');

const onnxSchema = z
  .object({
    /** A folder holding the export (laid out by hand). */
    model_dir: z.string().min(1).optional(),
    /** Or a hub repository, downloaded at first use into <data dir>/models/<org>--<name>@<revision>/. */
    hub: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be <org>/<name>, e.g. BAAI/bge-small-en-v1.5')
      .optional(),
    revision: z
      .string()
      .regex(/^(?!.*\.\.)[A-Za-z0-9_./-]+$/, 'must be a branch, tag or commit')
      .optional(),
    file: repoPath.optional(),
    /** sha256 (hex) of the ONNX file, or per repository path: a download that differs is refused. */
    sha256: z
      .union([
        z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits'),
        z.record(repoPath, z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits')),
      ])
      .optional(),
    hub_url: z.string().url().optional(),
    name: z.string().optional(),
    max_tokens: z.number().int().positive().optional(),
    query_prefix: z.string().max(1000).optional(),
    passage_prefix: z.string().max(1000).optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (!o.model_dir === !o.hub)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [], message: 'set exactly one of model_dir (a folder) or hub (<org>/<name>)' });
    if (!o.hub)
      for (const k of ['revision', 'file', 'sha256', 'hub_url'] as const)
        if (o[k] !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [k], message: 'only applies with hub' });
  });

const embedderSchema = z
  .object({
    provider: z.enum(['use-lite', 'onnx', 'openai']).default('use-lite'),
    threads: z.number().int().min(1).max(64).default(2),
    batch_size: z.number().int().min(1).max(512).default(32),
    batch_window_ms: z.number().int().min(0).max(10_000).default(15),
    quantize: z.enum(['fp32', 'int8']).default('fp32'),
    // niceness of the bulk embedding threads (Linux): while a backlog is embedded, searches, agents' writes and the
    // daemon's own threads get the CPU first; 0 runs them at the daemon's priority
    nice: z.number().int().min(0).max(19).default(10),
    // the bulk threads and their model sessions end after this long without work (README, Memory); 0 keeps them
    release_after_ms: z.number().int().min(0).max(3_600_000).default(10_000),
    onnx: onnxSchema.optional(),
    openai: z
      .object({
        base_url: z.string().url(),
        model: z.string().min(1),
        api_key_env: z.string().optional(),
        dim: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.provider === 'onnx' && !e.onnx)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['onnx'], message: 'provider "onnx" needs embedder.onnx.hub or model_dir' });
    if (e.provider === 'openai' && !e.openai)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['openai'],
        message: 'provider "openai" needs embedder.openai.base_url and model',
      });
  });

const searchSchema = z
  .object({
    default_k: z.number().int().min(1).max(1000).default(10),
    max_k: z.number().int().min(1).max(1000).default(50),
    min_score: z.number().min(0).default(0),
    default_mode: z.enum(['hybrid', 'bm25', 'vector']).default('hybrid'),
    // rows keyword search scores for one query before only its rarer words choose rows (actors/gateway/match-budget.ts)
    match_budget: z.number().int().min(100).max(1_000_000).default(MATCH_BUDGET),
  })
  .strict()
  .refine((s) => s.default_k <= s.max_k, { message: 'default_k must not exceed max_k', path: ['default_k'] });

const identity = z.object({ name: z.string().min(1).max(200), email: z.string().min(3).max(200) }).strict();

const writesSchema = z
  .object({
    enabled: z.boolean().default(true),
    // `Memory` holds the fact log: agents may write notes there, but its reserved paths only through memory_remember/forget
    allowlist: z
      .array(z.string().min(1))
      .default(['Inbox', 'Meetings', 'People', 'Projects', 'Daily', 'Reviews', 'Reflections', 'Commitments', 'Memory']),
    max_bytes: z.number().int().min(1).max(50_000_000).default(200_000),
    author: identity.default({ name: 'memvault', email: 'memvault@localhost' }),
    person: identity.default({ name: 'vault owner', email: 'owner@localhost' }),
    human_quiet_ms: z.number().int().min(0).max(3_600_000).default(3_000),
    agents_may_read_sensitive: z.boolean().default(false),
    // writes waiting for the git writer, at most; past it a write is refused at once with `busy` (503, Retry-After).
    // 128 drains in ~2 s at the ~60 writes/s the writer makes one by one, and still within the gateway's 60 s write
    // timeout at the ~3.5 writes/s it kept up on a loaded 2-core machine while a bulk drop was being indexed
    max_queue: z.number().int().min(1).max(100_000).default(128),
  })
  .strict();

const supervisorSchema = z
  .object({
    intensity: z.number().int().min(0).default(5),
    period_ms: z.number().int().min(100).default(30_000),
    backoff_min_ms: z.number().int().min(0).default(50),
    backoff_max_ms: z.number().int().min(0).default(10_000),
    /** An actor whose oldest in-flight message goes unacked this long is restarted (the embedder gets twice it); 0 = off. */
    stall_ms: z.number().int().min(0).default(30_000),
  })
  .strict();

const idleSeconds = z
  .number()
  .int()
  .min(1)
  .max(30 * 86_400);
const roles = z.enum(['user', 'assistant', 'system', 'tool']);

const episodesSchema = z
  .object({
    // one text field of an episode (text, description, notes, original, corrected, input) at most, in UTF-8 bytes
    max_text_bytes: z.number().int().min(256).max(10_000_000).default(65_536),
    // a POST /v1/episodes body at most (1,000 episodes of a few KB each fit)
    max_body_bytes: z.number().int().min(1024).max(256_000_000).default(16_000_000),
    chat: z
      .object({
        index_roles: z.array(roles).min(1).default(['user', 'assistant']),
        min_chars: z.number().int().min(0).max(10_000).default(12),
        task_verbs: z
          .array(z.string().regex(/^[a-z][a-z'-]*$/, 'lower-case words only'))
          .default([
            'call',
            'email',
            'text',
            'send',
            'buy',
            'pay',
            'book',
            'schedule',
            'remind',
            'meet',
            'fix',
            'review',
            'ship',
            'cancel',
            'order',
            'renew',
            'submit',
            'file',
            'sign',
            'invite',
          ]),
        idle_close_s: idleSeconds.default(1800),
      })
      .strict()
      .default({}),
    task: z
      .object({ reindex_on_status: z.array(z.string().min(1).max(64)).default(['done', 'cancelled']) })
      .strict()
      .default({}),
  })
  .strict();

const memorySchema = z
  .object({
    // the fact log lives in <folder>/Log/YYYY-MM-DD.md, forgotten facts in <folder>/tombstones.jsonl
    folder: z
      .string()
      .regex(
        /^[A-Za-z0-9_-](?:[A-Za-z0-9 _-]*[A-Za-z0-9_-])?(?:\/[A-Za-z0-9_-](?:[A-Za-z0-9 _-]*[A-Za-z0-9_-])?)*$/,
        'a vault-relative folder of plain names, such as "Memory" or "Agents/Memory"',
      )
      .default('Memory'),
  })
  .strict();

// Days an episode is kept, by source type; `never` keeps it for good. Facts and vault notes are durable sources: their
// truth is the vault, never pruned by age.
const days = z.union([z.number().int().min(1).max(36_500), z.literal('never')]);
const durable = z.literal('never', {
  errorMap: () => ({ message: 'durable sources (facts, vault notes) are never pruned by age: only "never"' }),
});
const retentionSchema = z
  .object({
    days: z
      .object({
        chat: days.default(90),
        task: days.default(365),
        correction: days.default(365),
        fact: durable.default('never'),
        vault: durable.default('never'),
      })
      .strict()
      .default({}),
    // hours between retention sweeps (one also runs whenever the journal has been replayed: at start, after a reindex)
    sweep_every_h: z
      .number()
      .min(0.01)
      .max(24 * 30)
      .default(24),
  })
  .strict();

const recallSchema = z
  .object({
    // the recall log (<data dir>/recall/*.jsonl) at most; the oldest day files are dropped first
    max_mb: z.number().min(0.01).max(1_000_000).default(64),
  })
  .strict();

export const configSchema = z
  .object({
    vault: z.string().min(1).optional(),
    data_dir: z.string().min(1).optional(),
    listen: hostPort.default('127.0.0.1:7411'),
    user_id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - only')
      .default('default'),
    watcher: watcherSchema.default({}),
    chunker: chunkerSchema.default({}),
    embedder: embedderSchema.default({}),
    search: searchSchema.default({}),
    supervisor: supervisorSchema.default({}),
    writes: writesSchema.default({}),
    llm: llmSchema.optional(), // schema-llm.ts
    scheduler: schedulerSchema.default({}), // schema-skills.ts
    skills: skillsSchema.default({}),
    calendar: calendarSchema.optional(),
    templates: templatesSchema.default({}),
    episodes: episodesSchema.default({}),
    memory: memorySchema.default({}),
    retention: retentionSchema.default({}),
    recall: recallSchema.default({}),
    webdav: webdavSchema.default({}), // schema-webdav.ts
    heap: heapSchema.default({}), // schema-heap.ts
    agents: agentsSchema.default({}), // schema-agents.ts
    audit: auditSchema.default({}),
    dream: dreamSchema.default({}), // schema-dream.ts
    knowledge: knowledgeSchema.default({}), // schema-knowledge.ts
    curation: curationSchema.default({}), // schema-curation.ts
    log: z
      .object({ level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info') })
      .strict()
      .default({}),
  })
  .strict();

export type FileConfig = z.infer<typeof configSchema>;
