// The tool gateway's contracts: the write backend it is handed, who is calling, and what a tool call returns.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Caller, FactInput, MutationResult, RememberResult, UndoRequest, VaultOp } from '../../../messages/vault-ops.js';
import type { ToolMetrics } from './metrics.js';
import type { Principal } from '../agents/store.js';

/** What the MCP and HTTP transports serve (the ToolGateway): the table of tools, listed and called by name. */
export interface ToolServer {
  readonly version: string;
  readonly metrics: ToolMetrics;
  readonly maxBodyBytes: number;
  /** What MCP clients are told at initialize (prompts/mcp-instructions.liquid, rendered for this vault). */
  readonly instructions: string;
  /** The tools `principal` may call (all of them without one). */
  list(principal?: Principal): Promise<Tool[]>;
  known(name: string): boolean;
  call(name: string, rawArgs: unknown, ctx: CallContext): Promise<ToolOutcome>;
}

/**
 * The one mutation path (the git writer, reached through messages). Injected, so the gateway never writes files
 * itself; `available()` decides whether the write tools are offered at all.
 */
export interface WriteBackend {
  /** `mayReadSensitive`: the caller's own grant (agents' `--sensitive`); absent: the backend's setting. */
  mutate(op: VaultOp, caller: Caller & { mayReadSensitive?: boolean }): Promise<MutationResult>;
  undoLast(req: UndoRequest & { reason?: string }): Promise<MutationResult>;
  /** Appends a fact to today's log (memory_remember). */
  remember(fact: FactInput, caller: Caller): Promise<RememberResult>;
  /** Appends tombstone lines to the fact log's tombstones (memory_forget of facts). */
  forget(lines: string[], caller: Caller): Promise<MutationResult>;
  available(): { ok: true } | { ok: false; reason: string };
}

/**
 * What a wait for the index looks for at a path: a content hash, `'*'` (any content), null (the path gone), or a
 * test of the hash the index now holds (null: nothing) — a fact's line, whatever copies were merged in with it.
 */
export type IndexedWant = string | null | ((current: string | null) => boolean);

/** Whether the index's `current` hash at a path is what `want` waits for. */
export function indexedAsWanted(want: IndexedWant, current: string | null): boolean {
  if (typeof want === 'function') return want(current);
  return current === want || (want === '*' && current !== null);
}

/** Resolves true once the index holds what `want` says at `path`, false on timeout. */
export type WaitIndexed = (path: string, want: IndexedWant, timeoutMs: number) => Promise<boolean>;

export type Transport = 'mcp' | 'http' | 'stdio';

/** Who is calling and how: recorded on every call (logs, metrics, commit trailers). */
export interface CallContext {
  agent: string;
  transport: Transport;
  /** Who the token says is calling (agents/principal.ts); absent: an in-process caller with the owner's rights. */
  principal?: Principal;
}

/** Stable reason codes a tool call can fail with (the write reasons plus the read side's own). */
export type ToolFailReason =
  | 'bad_request'
  | 'not_found'
  | 'path_escape'
  | 'not_markdown'
  | 'outside_allowlist'
  | 'too_large'
  | 'conflict'
  | 'missing'
  | 'exists'
  | 'sensitive'
  | 'invalid_content'
  | 'unavailable'
  | 'disk_full'
  | 'busy'
  | 'nothing_to_undo'
  | 'reserved'
  | 'forbidden'
  | 'unauthorized'
  | 'rate_limited'
  | 'index_damaged'
  | 'internal';

export interface ToolError {
  reason: ToolFailReason;
  message: string;
}

/** A tool's answer: the result object (what HTTP returns with 200), or an expected failure as data. */
export type ToolOutcome<T extends object = object> = { ok: true; result: T } | { ok: false; error: ToolError };

export function toolFail(reason: ToolFailReason, message: string): { ok: false; error: ToolError } {
  return { ok: false, error: { reason, message } };
}

/**
 * How a caller refused a sensitive note could read it, for the message: an agent's credential by its own grant
 * (writes.agents_may_read_sensitive does nothing for it), the owner token (or an in-process caller) by the config.
 */
export function sensitiveRemedy(p: Principal | undefined): string {
  return p?.kind === 'agent'
    ? `the credential of agent ${p.name} was not granted --sensitive; the vault owner can add a credential that is (memvault agents add NAME --scope SCOPE --sensitive)`
    : 'the vault owner can allow it with `writes.agents_may_read_sensitive: true` in memvault.yaml';
}

/** The HTTP status for a failure reason on `POST /v1/tools/<name>`. */
export function httpStatus(reason: ToolFailReason): number {
  switch (reason) {
    case 'bad_request':
    case 'not_markdown':
    case 'invalid_content':
      return 400;
    case 'path_escape':
    case 'outside_allowlist':
    case 'sensitive':
    case 'reserved':
    case 'forbidden':
      return 403;
    case 'unauthorized':
      return 401;
    case 'rate_limited':
      return 429;
    case 'not_found':
    case 'missing':
      return 404;
    case 'conflict':
    case 'exists':
    case 'nothing_to_undo':
      return 409;
    case 'too_large':
      return 413;
    case 'unavailable':
    case 'busy':
    case 'index_damaged':
      return 503;
    case 'disk_full':
      return 507; // Insufficient Storage
    case 'internal':
      return 500;
  }
}

/** Agent ids as recorded: `[A-Za-z0-9_.-]{1,64}`; anything else is folded into that alphabet, empty becomes `agent`. */
export function sanitiseAgent(raw: string | string[] | undefined | null): string {
  const s = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  const clean = s
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return clean === '' ? 'agent' : clean;
}
