// The agents' credentials: `<data dir>/agents.json` (0600, rewritten atomically) holds each agent's grant and an
// scrypt hash of its token, never the token. The CLI edits it; the gateway reads it and notices every rewrite.
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RATE } from '../../../config/schema-agents.js';

export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** Agent names: what commits, episodes, the recall log and the audit trail record. */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/**
 * Names the daemon records work under itself: the owner's token without an `X-Memvault-Agent` header (`agent`), the
 * CLI, backfill, the status page, the dream, the scheduler's and curation's writers (`memvault-…`). An agent holding
 * one would own that work (undo it, forget it), so no agent may be named so, in any letter case.
 */
const RESERVED_AGENT_NAMES = new Set(['agent', 'anonymous', 'owner', 'cli', 'backfill', 'status-page', 'dream']);
export function isReservedAgentName(name: string): boolean {
  const n = name.toLowerCase();
  return RESERVED_AGENT_NAMES.has(n) || n.startsWith('memvault');
}
/** The reserved names the owner's own callers use (`agent`: no header, `cli`, `owner`): the owner token may send them. */
const OWNER_NAMES = new Set(['agent', 'cli', 'owner']);
/**
 * Whether the owner token may name its caller `name` (X-Memvault-Agent): not after the daemon's own jobs (the dream,
 * backfill, the status page, `memvault-…`), whose commits `memvault undo --run` and the like take as theirs.
 */
export function ownerMayNameItself(name: string): boolean {
  return OWNER_NAMES.has(name.toLowerCase()) || !isReservedAgentName(name);
}
/** A folder prefix: vault-relative plain names joined by `/`, no `.` or `..` segments. */
const FOLDER = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[^/\\\0][^\\\0]*$/;

const grantSchema = z
  .object({
    name: z.string().regex(AGENT_NAME),
    scope: z.enum(SCOPES),
    /** Folder prefixes the agent may write (inside writes.allowlist); null: anywhere the allowlist permits. */
    folders: z.array(z.string().regex(FOLDER)).nullable(),
    /** May read sensitive notes. */
    sensitive: z.boolean(),
    /** `N/s|m|h`; null: agents.default_rate. */
    rate: z.string().regex(RATE).nullable(),
    created_at: z.string(),
    rotated_at: z.string().nullable().default(null),
    /** The first 16 hex digits of the token's sha256: finds the record without trying every hash. */
    key_id: z.string().regex(/^[0-9a-f]{16}$/),
    /** `scrypt$N$r$p$<salt b64>$<hash b64>`. */
    hash: z.string().startsWith('scrypt$'),
  })
  .strict();
export type AgentRecord = z.infer<typeof grantSchema>;
export type Grant = Pick<AgentRecord, 'name' | 'scope' | 'folders' | 'sensitive' | 'rate'>;

/** Who is calling, resolved from the bearer token (principal.ts). */
export interface Principal {
  kind: 'owner' | 'agent';
  /** What commits, episodes, the recall log and the audit trail record. */
  name: string;
  scope: Scope;
  /** Folder prefixes writes are limited to; null: anywhere writes.allowlist permits. */
  folders: readonly string[] | null;
  /** May read sensitive notes (the owner: writes.agents_may_read_sensitive). */
  sensitive: boolean;
  /** `N/s|m|h`; null: not limited (the owner). */
  rate: string | null;
}

/**
 * A credential taken back (revoked, or rotated out): kept so a refusal of its token is audited under the agent's name,
 * not as anonymous. Only the newest RETIRED_KEPT are kept.
 */
const retiredSchema = z
  .object({
    name: z.string().regex(AGENT_NAME),
    key_id: z.string().regex(/^[0-9a-f]{16}$/),
    hash: z.string().startsWith('scrypt$'),
    why: z.enum(['revoked', 'rotated']),
    at: z.string(),
  })
  .strict();
export type RetiredRecord = z.infer<typeof retiredSchema>;
const RETIRED_KEPT = 256;

const fileSchema = z.object({ version: z.literal(1), agents: z.array(grantSchema), retired: z.array(retiredSchema).default([]) }).strict();
export type AgentsFile = z.infer<typeof fileSchema>;

export class AgentsFileError extends Error {
  readonly reason = 'agents_file_invalid';
}

export const agentsFile = (dataDir: string): string => path.join(dataDir, 'agents.json');

/** The agents on record; an absent file is no agents, a damaged one throws AgentsFileError naming the problem. */
export function readAgents(dataDir: string): AgentsFile {
  const file = agentsFile(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, agents: [], retired: [] };
    throw err;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new AgentsFileError(`${file} is not JSON (${(err as Error).message}); restore it or remove it and add the agents again`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success)
    throw new AgentsFileError(`${file} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Rewrites agents.json atomically (a temp file, fsync'd, renamed over it), mode 0600. */
export function writeAgents(dataDir: string, f: AgentsFile): void {
  const file = agentsFile(dataDir);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(f, null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** A new token: 32 random bytes, base64url, prefixed `mv_`. */
export function newToken(): string {
  return `mv_${randomBytes(32).toString('base64url')}`;
}

export const keyIdOf = (token: string): string => createHash('sha256').update(token).digest('hex').slice(0, 16);

// A token is 256 random bits: no work factor is needed against guessing it, so scrypt's cost is kept small (2^10 × 8:
// 1 MB, ~1–3 ms) — the hash only makes a copied agents.json useless. Paid once per token per gateway incarnation.
const N = 1_024;
const R = 8;
const P = 1;

export function hashToken(token: string): { key_id: string; hash: string } {
  const salt = randomBytes(16);
  const h = scryptSync(token, salt, 32, { N, r: R, p: P });
  return { key_id: keyIdOf(token), hash: `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${h.toString('base64')}` };
}

/** Does `token` match the stored hash? Computed off the calling thread (libuv's pool), compared in constant time. */
export async function verifyToken(token: string, hash: string): Promise<boolean> {
  const [kind, n, r, p, salt, want] = hash.split('$');
  if (kind !== 'scrypt' || !n || !r || !p || !salt || !want) return false;
  const expected = Buffer.from(want, 'base64');
  const got = await new Promise<Buffer>((resolve, reject) =>
    scrypt(
      token,
      Buffer.from(salt, 'base64'),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * Number(n) * Number(r) + 1_048_576 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export type StoreResult<T> = { ok: true; result: T } | { ok: false; reason: 'exists' | 'not_found' | 'bad_request'; message: string };

/** Adds an agent; returns its token (shown once, never stored). */
export function addAgent(dataDir: string, g: Grant, now: Date): StoreResult<{ token: string }> {
  if (!AGENT_NAME.test(g.name))
    return {
      ok: false,
      reason: 'bad_request',
      message: `agent name "${g.name}" must be 1-64 letters, digits, _ . - (starting with a letter or digit)`,
    };
  if (isReservedAgentName(g.name))
    return {
      ok: false,
      reason: 'bad_request',
      message: `agent name "${g.name}" is reserved: memvault records its own work under it (reserved: ${[...RESERVED_AGENT_NAMES].join(', ')}, memvault…); choose another`,
    };
  const f = readAgents(dataDir);
  if (f.agents.some((a) => a.name === g.name))
    return { ok: false, reason: 'exists', message: `an agent named "${g.name}" exists; revoke it first, or rotate its token` };
  // `Alice` and `alice` would read as one agent in commits, the audit trail and `memvault audit --agent`
  const same = f.agents.find((a) => a.name.toLowerCase() === g.name.toLowerCase());
  if (same)
    return {
      ok: false,
      reason: 'exists',
      message: `an agent named "${same.name}" exists, and "${g.name}" differs from it only in letter case (agent names are one name in any case); choose another name, or revoke "${same.name}" first`,
    };
  const token = newToken();
  const rec = grantSchema.safeParse({ ...g, created_at: now.toISOString(), rotated_at: null, ...hashToken(token) });
  if (!rec.success)
    return { ok: false, reason: 'bad_request', message: rec.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  writeAgents(dataDir, { ...f, agents: [...f.agents, rec.data] });
  return { ok: true, result: { token } };
}

/** The retired list with `rec`'s credential added (newest last, the oldest dropped past RETIRED_KEPT). */
function retire(f: AgentsFile, rec: AgentRecord, why: RetiredRecord['why'], now: Date): RetiredRecord[] {
  return [...f.retired, { name: rec.name, key_id: rec.key_id, hash: rec.hash, why, at: now.toISOString() }].slice(-RETIRED_KEPT);
}

/** Agents on record whose names differ only in letter case (added before `agents add` refused that). */
export interface CaseTwins {
  reason: 'agent_names_differ_in_case';
  names: string[];
  message: string;
}

/**
 * Each set of agents whose names are one name in any case (`Alice`, `alice`): `agents add` refuses a second one now,
 * but agents.json may hold pairs from before. `memvault doctor` and `memvault agents list` warn of them.
 */
export function caseTwins(agents: readonly Pick<AgentRecord, 'name'>[]): CaseTwins[] {
  const by = new Map<string, string[]>();
  for (const a of agents) by.set(a.name.toLowerCase(), [...(by.get(a.name.toLowerCase()) ?? []), a.name]);
  return [...by.values()]
    .filter((names) => names.length > 1)
    .map((names) => {
      const quoted = names.map((n) => `"${n}"`);
      const listed = `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
      return {
        reason: 'agent_names_differ_in_case',
        names,
        message: `agents ${listed} differ only in letter case, so commits, the audit trail and \`memvault audit --agent\` read them as one agent; revoke all but one (\`memvault agents revoke ${names.at(-1)}\`) and add it again under another name`,
      };
    });
}

/**
 * The agent `name` names: its exact spelling, else the one agent whose name differs only in letter case (names are
 * one name in any case: `revoke ALICE` revokes Alice). Two such agents added before that rule: only the exact name.
 */
function agentNamed(f: AgentsFile, name: string): AgentRecord | undefined {
  const exact = f.agents.find((a) => a.name === name);
  if (exact) return exact;
  const same = f.agents.filter((a) => a.name.toLowerCase() === name.toLowerCase());
  return same.length === 1 ? same[0] : undefined;
}

/** Revokes the agent `name` names (any letter case); answers its name as stored. */
export function revokeAgent(dataDir: string, name: string, now: Date): StoreResult<{ name: string }> {
  const f = readAgents(dataDir);
  const rec = agentNamed(f, name);
  if (!rec) return { ok: false, reason: 'not_found', message: `no agent named "${name}"` };
  writeAgents(dataDir, { version: 1, agents: f.agents.filter((a) => a !== rec), retired: retire(f, rec, 'revoked', now) });
  return { ok: true, result: { name: rec.name } };
}

/** A new token for the agent, same grant; the old token stops working at the gateway's next request. */
export function rotateAgent(dataDir: string, name: string, now: Date): StoreResult<{ token: string; name: string }> {
  const f = readAgents(dataDir);
  const named = agentNamed(f, name);
  const i = named ? f.agents.indexOf(named) : -1;
  if (i < 0) return { ok: false, reason: 'not_found', message: `no agent named "${name}"` };
  const token = newToken();
  const agents = f.agents.slice();
  agents[i] = { ...agents[i]!, ...hashToken(token), rotated_at: now.toISOString() };
  writeAgents(dataDir, { version: 1, agents, retired: retire(f, f.agents[i]!, 'rotated', now) });
  return { ok: true, result: { token, name: agents[i]!.name } };
}
