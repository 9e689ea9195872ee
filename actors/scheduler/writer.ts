// The writer every skill shares: where the note goes (autonomy low → Inbox/), the idempotency key read from the
// target before any LLM spend (a match costs nothing), the guard that never rewrites a note a person wrote, the
// draft (the skill's one LLM call), the render, and one write through the git writer — a commit whose trailers name
// the skill. Any failure is `failed` with a reason and an event, and nothing is written; never a partial note.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Failure } from '../../messages/common.js';
import { sha256Hex } from '../../messages/hash.js';
import type { NoteOutcome } from '../../messages/to-scheduler.js';
import type { Caller, MutationResult, VaultOp } from '../../messages/vault-ops.js';
import { TemplateError, type Templates } from './templates/engine.js';
import type { VaultTemplate, VaultVars } from './templates/vars.js';
import { readFrontmatter } from '../chunker/frontmatter.js';

export type Autonomy = 'low' | 'medium' | 'high';

/** A note as it is on disk, if it is there. */
export interface OnDisk {
  exists: boolean;
  frontmatter: Record<string, unknown>;
  body: string;
  hash: string | null;
}

export async function readNote(vault: string, rel: string): Promise<OnDisk> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path.join(vault, ...rel.split('/')));
  } catch {
    return { exists: false, frontmatter: {}, body: '', hash: null };
  }
  const lines = bytes
    .toString('utf8')
    .replace(/^\ufeff/, '')
    .split('\n');
  const fm = readFrontmatter(lines);
  return { exists: true, frontmatter: fm.data, body: lines.slice(fm.bodyStartLine).join('\n'), hash: sha256Hex(bytes) };
}

/** Where a note the skill wants at `wanted` goes: the same path, or `Inbox/<basename>` at low autonomy. */
export function targetPath(wanted: string, autonomy: Autonomy): string {
  return autonomy === 'low' ? `Inbox/${path.posix.basename(wanted)}` : wanted;
}

/** What a skill's draft step came to: the note's variables, nothing to write (with why), or a failure. */
export type Draft<N extends VaultTemplate> =
  | { ok: true; vars: VaultVars[N] }
  | { ok: false; outcome: 'skipped'; reason: string }
  | { ok: false; outcome: 'failed'; reason: string; retry?: boolean };

export interface AutowriteSpec<N extends VaultTemplate> {
  skill: string;
  template: N;
  /** Where the skill wants the note (vault-relative). */
  path: string;
  key: string;
  autonomy: Autonomy;
  /** Gathers context and asks the LLM; runs only when the key did not match. `current` is the note now, if any. */
  draft(current: OnDisk): Promise<Draft<N>>;
}

export type AutowriteEvent = 'vault_autowrite_written' | 'vault_autowrite_skipped_idempotent' | 'vault_autowrite_failed';

export interface WriterDeps {
  vault: string;
  templates: Templates;
  /** One request to the git writer (the one mutation path). */
  mutate(op: VaultOp, caller: Caller): Promise<MutationResult>;
  /** At info unless `level` says debug (a note already written: nothing happened). */
  log(event: AutowriteEvent, fields: Record<string, unknown>, level?: 'debug'): void;
  count(template: string, outcome: string): void;
  /** After a note is written: what to do with it next (person stubs); their outcomes ride along in `also`. */
  written?(note: { path: string; body: string; skill: string; autonomy: Autonomy }): Promise<WriteOutcome[]>;
}

/** One note's outcome; `retry` marks a failure worth making up later, `also` the notes written because of it. */
export type WriteOutcome = NoteOutcome & { retry?: boolean; also?: WriteOutcome[] };

export const AGENT = 'memvault-scheduler';

export class SkillWriter {
  constructor(readonly d: WriterDeps) {}

  async write<N extends VaultTemplate>(spec: AutowriteSpec<N>): Promise<WriteOutcome> {
    const target = targetPath(spec.path, spec.autonomy);
    const current = await readNote(this.d.vault, target);
    const fields = { template: spec.template, skill: spec.skill, path: target, key: spec.key };
    if (current.exists && current.frontmatter['idempotency_key'] === spec.key) {
      this.d.log('vault_autowrite_skipped_idempotent', fields, 'debug');
      this.d.count(spec.template, 'skipped_idempotent');
      return { outcome: 'skipped_idempotent', path: target, commit: null, reason: `${target} already carries idempotency_key ${spec.key}` };
    }
    // a person's note is never rewritten: only an empty one, or one memvault wrote and nobody claimed
    if (current.exists && current.frontmatter['autowritten_by'] !== 'memvault' && current.body.trim() !== '')
      return this.#skip(
        spec,
        target,
        `not_ours: ${target} exists and was not written by memvault (no autowritten_by: memvault); left alone`,
      );
    const draft = await spec.draft(current);
    if (!draft.ok) {
      if (draft.outcome === 'skipped') return this.#skip(spec, target, draft.reason);
      return this.#fail(fields, draft.reason, draft.retry);
    }
    let note: ReturnType<Templates['renderNote']>;
    try {
      note = this.d.templates.renderNote(spec.template, draft.vars);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      return this.#fail(fields, `template_error: ${err.message}`);
    }
    const caller: Caller = { agent: AGENT, reason: `${spec.skill} ${spec.key}`, skill: spec.skill };
    const op: VaultOp = { op: 'write', path: target, content: note.text, ...(current.hash ? { expectedHash: current.hash } : {}) };
    let r: MutationResult;
    try {
      r = await this.d.mutate(op, caller);
    } catch (err) {
      // the git writer did not answer (restarting, timed out): nothing was acknowledged
      return this.#fail(fields, `write_unavailable: ${(err as Error).message}`, true);
    }
    if (!r.ok) return this.#fail(fields, `write_${r.reason}: ${r.message}`, r.reason === 'unavailable' || r.reason === 'busy');
    this.d.log('vault_autowrite_written', { ...fields, commit: r.commit });
    this.d.count(spec.template, 'written');
    const also = this.d.written ? await this.d.written({ path: target, body: note.body, skill: spec.skill, autonomy: spec.autonomy }) : [];
    return { outcome: 'written', path: target, commit: r.commit, reason: null, ...(also.length ? { also } : {}) };
  }

  #skip(spec: { template: string }, target: string, reason: string): WriteOutcome {
    this.d.count(spec.template, 'skipped');
    return { outcome: 'skipped', path: target, commit: null, reason };
  }

  #fail(fields: Record<string, unknown> & { template: string; path: string }, reason: string, retry = false): WriteOutcome {
    this.d.log('vault_autowrite_failed', { ...fields, reason });
    this.d.count(fields.template, 'failed');
    return { outcome: 'failed', path: fields.path, commit: null, reason, ...(retry ? { retry } : {}) };
  }
}

/** A failed LLM call as a draft failure: retried later when the endpoint was the problem. */
export function llmFailure(f: Failure): { ok: false; outcome: 'failed'; reason: string; retry: boolean } {
  const passing = ['unreachable', 'timeout', 'rate_limited', 'server_error'].includes(f.reason);
  return { ok: false, outcome: 'failed', reason: `llm_${f.reason}: ${f.message}`, retry: passing };
}
