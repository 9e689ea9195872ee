// POST /v1/episodes bodies, checked item by item: a bad episode is refused with a stable reason naming its field
// (bad_request: shape; invalid_content: NUL or broken Unicode; too_large: over episodes.max_text_bytes) and never
// sinks the good ones beside it. A request over 1,000 episodes is refused whole (too_large).
import { z } from 'zod';
import type { Episode } from '../../messages/episodes.js';

export const MAX_EPISODES = 1_000;

export type ItemReason = 'bad_request' | 'invalid_content' | 'too_large' | 'forbidden';

export interface Rejected {
  i: number;
  reason: ItemReason;
  message: string;
}

export interface Checked {
  accepted: Array<{ i: number; ep: Episode; at: number }>;
  rejected: Rejected[];
}

const str = (name: string) => z.string({ required_error: `${name} is required`, invalid_type_error: `${name} must be a string` });
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters in an id are the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const id = (name: string, colonFree = false) =>
  str(name)
    .min(1, `${name} must not be empty`)
    .max(200, `${name} must be at most 200 characters`)
    .refine((v) => v.trim() === v && !CONTROL.test(v), `${name} must not hold control characters or leading/trailing spaces`)
    .refine((v) => !colonFree || !v.includes(':'), `${name} must not hold ':' (episode ids are "chat:<session>:<message>")`);
/** A chat session's id, as a chat turn must give it (and as POST /v1/episodes/sessions/<id>/close names it). */
export const sessionIdSchema = id('session_id', true);
const short = (name: string) => str(name).min(1, `${name} must not be empty`).max(256, `${name} must be at most 256 characters`);
const AT_RULE = 'at must be epoch ms, an ISO 8601 date-time with a zone (e.g. 2026-05-01T09:30:00Z) or a date (2026-05-01)';
/** How far ahead of this machine's clock an episode's `at` may be (the sender's clock may run fast). */
const FUTURE_SLACK_MS = 86_400_000;
const at = z
  .union([
    z.number({ invalid_type_error: AT_RULE }).finite().nonnegative().max(8.64e15),
    z.string().datetime({ offset: true, message: AT_RULE }),
    z.string().date(AT_RULE),
  ])
  .optional();

const chat = z
  .object({
    type: z.literal('chat'),
    session_id: sessionIdSchema,
    message_id: id('message_id'),
    role: z.enum(['user', 'assistant', 'system', 'tool'], {
      errorMap: () => ({ message: 'role must be user, assistant, system or tool' }),
    }),
    text: str('text'),
    at,
  })
  .strict();

const task = z
  .object({
    type: z.literal('task'),
    task_id: id('task_id'),
    title: str('title').min(1, 'title must not be empty'),
    description: str('description').optional(),
    notes: str('notes').optional(),
    status: short('status'),
    domain: short('domain').optional(),
    deadline: short('deadline').optional(),
    priority: z
      .union([z.number().finite(), short('priority')], { errorMap: () => ({ message: 'priority must be a number or a short string' }) })
      .optional(),
    event: z.enum(['upsert', 'delete'], { errorMap: () => ({ message: 'event must be "upsert" or "delete"' }) }).optional(),
    at,
  })
  .strict();

const correction = z
  .object({
    type: z.literal('correction'),
    correction_id: id('correction_id'),
    field: short('field'),
    original: str('original'),
    corrected: str('corrected'),
    input: str('input'),
    task_type: short('task_type').optional(),
    at,
  })
  .strict();

const SCHEMAS = { chat, task, correction } as const;
/** The fields holding free text: capped by episodes.max_text_bytes. */
const TEXT_FIELDS = ['text', 'title', 'description', 'notes', 'original', 'corrected', 'input'] as const;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

function item(raw: unknown, i: number, maxTextBytes: number, now: number): { ep: Episode; at: number } | Rejected {
  const bad = (reason: ItemReason, message: string): Rejected => ({ i, reason, message: `episodes[${i}]: ${message}` });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('bad_request', 'each episode must be an object');
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.hasOwn(SCHEMAS, type))
    return bad('bad_request', `unknown type ${JSON.stringify(type ?? null)}: an episode's type is "chat", "task" or "correction"`);
  // NUL and broken Unicode first: such text is refused as content, whatever else is wrong with the episode
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== 'string') continue;
    const nul = v.indexOf('\u0000');
    if (nul >= 0) return bad('invalid_content', `${k} holds a NUL character at index ${nul}; episodes are text`);
    const lone = LONE_SURROGATE.exec(v);
    if (lone) return bad('invalid_content', `${k} is not valid Unicode (a lone surrogate at index ${lone.index}); fix its encoding`);
  }
  for (const k of TEXT_FIELDS) {
    const v = (raw as Record<string, unknown>)[k];
    if (typeof v === 'string' && Buffer.byteLength(v, 'utf8') > maxTextBytes)
      return bad(
        'too_large',
        `${k} is ${Buffer.byteLength(v, 'utf8')} bytes, over the ${maxTextBytes}-byte limit (episodes.max_text_bytes); split it`,
      );
  }
  const parsed = SCHEMAS[type as keyof typeof SCHEMAS].safeParse(raw);
  if (!parsed.success) return bad('bad_request', parsed.error.issues.map((x) => `${x.path.join('.') || type}: ${x.message}`).join('; '));
  const ep = parsed.data as Episode;
  const when = ep.at === undefined ? now : typeof ep.at === 'number' ? ep.at : Date.parse(ep.at);
  // an episode has happened: one dated ahead of this clock would sort last in its session and never expire
  if (when > now + FUTURE_SLACK_MS)
    return bad(
      'bad_request',
      `at ${new Date(when).toISOString()} is more than a day ahead of this machine's clock (${new Date(now).toISOString()}): an episode has happened; check the sender's clock, or the unit (epoch milliseconds, not microseconds)`,
    );
  return { ep, at: when };
}

/**
 * Checks a POST /v1/episodes body. A body that is not `{"episodes": [...]}` with 1 to 1,000 items is refused whole
 * (`error`); otherwise each item is accepted or rejected on its own. Episodes without `at` take `now`.
 */
export function checkEpisodes(
  body: unknown,
  opts: { maxTextBytes: number; now: number },
): { ok: true; result: Checked } | { ok: false; error: { reason: 'bad_request' | 'too_large'; message: string } } {
  const shape = 'send {"episodes": [ … ]} with 1 to 1,000 chat, task or correction episodes';
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, error: { reason: 'bad_request', message: shape } };
  const extra = Object.keys(body).filter((k) => k !== 'episodes');
  if (extra.length) return { ok: false, error: { reason: 'bad_request', message: `unknown field(s) ${extra.join(', ')}: ${shape}` } };
  const list = (body as { episodes?: unknown }).episodes;
  if (!Array.isArray(list)) return { ok: false, error: { reason: 'bad_request', message: `episodes must be an array: ${shape}` } };
  if (list.length === 0) return { ok: false, error: { reason: 'bad_request', message: `episodes is empty: ${shape}` } };
  if (list.length > MAX_EPISODES)
    return {
      ok: false,
      error: {
        reason: 'too_large',
        message: `${list.length} episodes in one request; at most ${MAX_EPISODES}: split it into several requests`,
      },
    };
  const out: Checked = { accepted: [], rejected: [] };
  list.forEach((raw, i) => {
    const r = item(raw, i, opts.maxTextBytes, opts.now);
    if ('reason' in r) out.rejected.push(r);
    else out.accepted.push({ i, ...r });
  });
  return { ok: true, result: out };
}
