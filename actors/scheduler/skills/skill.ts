// What a skill is: a name and a run that turns a trigger (a cron slot, or `memvault run` with a date or an event)
// into notes through the shared writer. Everything a skill may use comes in its SkillEnv, so tests can build one.
import type { Config } from '../../../config/load.js';
import type { SkillName } from '../../../config/schema-skills.js';
import type { NoteOutcome } from '../../../messages/to-scheduler.js';
import type { Caller, FactInput, MutationResult, RememberResult } from '../../../messages/vault-ops.js';
import type { AskDeps } from '../ask.js';
import type { Context } from '../context.js';
import type { RunReport, RunRequest } from '../core.js';
import { localDate } from '../dates.js';
import type { Autonomy, SkillWriter, WriteOutcome } from '../writer.js';

export interface SkillEnv {
  cfg: Config;
  tz: string;
  /** Wall-clock ms. */
  now(): number;
  ctx: Context;
  writer: SkillWriter;
  ask: AskDeps;
  log(event: string, fields: Record<string, unknown>): void;
  /** One line appended to today's fact log (memory_remember's path: the git writer, a commit). */
  remember(fact: FactInput, caller: Caller): Promise<RememberResult>;
  /** The git writer's `git.curation` (USER.md and its audit line in one commit): the curation job's only write. */
  writeUserMd(msg: { userMd: string | null; expectedHash?: string; auditLine: string | null }): Promise<MutationResult>;
}

export interface Skill {
  name: SkillName;
  /** Needs the LLM (every skill does today; person stubs are not a job). */
  llm: boolean;
  /** Why it cannot run with these settings (no calendar …), or null. */
  unready?(cfg: Config): string | null;
  run(env: SkillEnv, req: RunRequest): Promise<RunReport>;
}

/** A job with its own config section rather than one under `skills:` (USER.md curation: `curation:`). */
export interface OwnJob extends Omit<Skill, 'name'> {
  name: string;
  /** Whether the clock runs it, and its cron (in scheduler.tz). */
  settings(cfg: Config): { enabled: boolean; cron: string };
}

export function autonomyOf(cfg: Config, skill: SkillName): Autonomy {
  return cfg.skills[skill].autonomy;
}

/** The local date a run is for: `--date`, else the slot's date, else today (in scheduler.tz). */
export function runDate(env: SkillEnv, req: RunRequest): string {
  return req.date ?? localDate(req.slot ?? env.now(), env.tz);
}

const plain = (o: WriteOutcome): NoteOutcome[] => [
  { outcome: o.outcome, path: o.path, commit: o.commit, reason: o.reason },
  ...(o.also ?? []).flatMap(plain),
];

/** One note's outcome as the run's answer; `results` lists it and the person stubs it led to. */
export function single(o: WriteOutcome): RunReport {
  return { outcome: o.outcome, path: o.path, commit: o.commit, reason: o.reason, results: plain(o), ...(o.retry ? { retry: true } : {}) };
}

/**
 * Several notes' outcomes as one answer: the first written note (else the first failure, else the first
 * idempotent skip, else a skip), with every outcome in `results`; `retry` when any failed for a passing reason.
 */
export function combine(outcomes: WriteOutcome[], none: string): RunReport {
  const results: NoteOutcome[] = outcomes.flatMap(plain);
  if (outcomes.length === 0) return { outcome: 'skipped', path: null, commit: null, reason: none, results };
  const pick =
    outcomes.find((o) => o.outcome === 'written') ??
    outcomes.find((o) => o.outcome === 'failed') ??
    outcomes.find((o) => o.outcome === 'skipped_idempotent') ??
    outcomes[0]!;
  return {
    outcome: pick.outcome,
    path: pick.path,
    commit: pick.commit,
    reason: pick.reason,
    results,
    retry: outcomes.some((o) => o.retry),
  };
}
