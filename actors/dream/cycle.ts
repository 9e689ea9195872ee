// The consolidation cycle: the gate's tick (or a request), the lock (one run at a time: a second request answers
// `busy` with the running id), a skipped batch's journal line, a run and the state it leaves (last attempt,
// failures per batch, sprint), persisted before and after so a restart neither resets the clock nor forgets a
// failure; a run cut off by a crash is recorded as `interrupted` at the next start and its batch runs again.
import { randomBytes } from 'node:crypto';
import { localDate } from '../scheduler/dates.js';
import { afterAttempt, afterSkip, decide, type GateSettings, pendingDays } from './gate.js';
import { formatEntry, readWatermark } from './journal.js';
import { DREAM_AGENT, type RunDeps, type RunReport, runBatch } from './run.js';
import type { DreamState, DreamStateFile, LastDreamRun } from './state-file.js';

export interface CycleDeps extends Omit<RunDeps, 'today'> {
  tz: string;
  gate: GateSettings;
  state: DreamStateFile;
  /** The journal's text now (Memory/log.md), null when missing. */
  readJournal(): Promise<string | null>;
  runId?(): string;
  /** After a consolidated run (MEMORY.md regeneration); its failure does not undo the run. */
  afterRun?(report: RunReport): Promise<void>;
}

export type TickResult =
  | { outcome: 'busy'; run: string }
  | { outcome: 'idle'; reason: string; next_eligible: string | null; pending: number }
  | { outcome: 'skipped'; batch: string; failures: number; watermark: string }
  | ({ outcome: RunReport['outcome'] } & RunReport);

export interface DreamStatus {
  running: boolean;
  run_id: string | null;
  watermark: string | null;
  pending_days: string[];
  next_eligible: string | null;
  next_reason: string | null;
  last_run: LastDreamRun | null;
  failures: Record<string, number>;
  sprint: boolean;
}

export function newRunId(now: number): string {
  return `dream-${new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
}

export class DreamCycle {
  readonly #d: CycleDeps;
  #s: DreamState;
  #running: { id: string; batch: string } | null = null;

  constructor(d: CycleDeps) {
    this.#d = d;
    this.#s = d.state.load();
    const cut = this.#s.running;
    if (cut) {
      // killed mid-run: its finished writes are whole commits, the watermark did not move; the batch runs again
      this.#s = {
        ...this.#s,
        running: null,
        lastRun: this.#last(cut.id, 'interrupted', cut.batch, null, 'the daemon stopped during the run'),
      };
      d.state.save(this.#s);
      d.event('dream_run_interrupted', { run: cut.id, batch: cut.batch });
    }
  }

  get runningId(): string | null {
    return this.#running?.id ?? null;
  }

  #last(id: string, outcome: LastDreamRun['outcome'], batch: string, r: RunReport | null, reason: string | null): LastDreamRun {
    return {
      id,
      outcome,
      batch,
      pages: r?.pages.length ?? 0,
      covered: r?.covered.length ?? 0,
      uncovered: r?.uncovered.length ?? 0,
      tokens: r?.tokens ?? 0,
      cost: r?.cost ?? 0,
      reason,
      at: new Date(this.#d.now()).toISOString(),
    };
  }

  async status(): Promise<DreamStatus> {
    const now = this.#d.now();
    const watermark = readWatermark(await this.#d.readJournal());
    const days = await this.#d.days.days(watermark);
    const dec = decide({ days, watermark, state: this.#s, nowMs: now, tz: this.#d.tz, cfg: this.#d.gate });
    return {
      running: this.#running !== null,
      run_id: this.#running?.id ?? null,
      watermark,
      pending_days: pendingDays(days, watermark, localDate(now, this.#d.tz)).map((d) => d.date),
      next_eligible:
        dec.kind === 'idle'
          ? dec.nextEligibleMs === null
            ? null
            : new Date(dec.nextEligibleMs).toISOString()
          : new Date(now).toISOString(),
      next_reason: dec.kind === 'idle' ? dec.reason : null,
      last_run: this.#s.lastRun,
      failures: { ...this.#s.failures },
      sprint: this.#s.sprint,
    };
  }

  /** One gate check (`requested`: memvault consolidate / POST /v1/consolidate; `force` also retries a batch past max_retries). */
  async tick(opts: { requested?: boolean; force?: boolean } = {}): Promise<TickResult> {
    if (this.#running) return { outcome: 'busy', run: this.#running.id };
    const id = (this.#d.runId ?? (() => newRunId(this.#d.now())))();
    this.#running = { id, batch: '' };
    try {
      return await this.#tick(id, opts);
    } finally {
      this.#running = null;
    }
  }

  async #tick(id: string, opts: { requested?: boolean; force?: boolean }): Promise<TickResult> {
    const d = this.#d;
    const now = d.now();
    const watermark = readWatermark(await d.readJournal());
    const days = await d.days.days(watermark);
    const state = opts.force ? { ...this.#s, failures: {} } : this.#s;
    const dec = decide({ days, watermark, state, nowMs: now, tz: d.tz, cfg: d.gate, requested: opts.requested === true });
    d.event('dream_gate_checked', { decision: dec.kind, ...(dec.kind === 'idle' ? { reason: dec.reason } : { batch: dec.key }) });
    const pendingBefore = pendingDays(days, watermark, localDate(now, d.tz)).length;
    if (dec.kind === 'idle')
      return {
        outcome: 'idle',
        reason: dec.reason,
        next_eligible: dec.nextEligibleMs === null ? null : new Date(dec.nextEligibleMs).toISOString(),
        pending: dec.pending,
      };
    const last = dec.batch[dec.batch.length - 1]!;
    if (dec.kind === 'skip') {
      const line = formatEntry({
        at: new Date(now).toISOString(),
        watermark: last,
        outcome: 'skipped',
        batch: dec.key,
        failures: dec.failures,
      });
      const w = await d.appendJournal(line, { agent: DREAM_AGENT, reason: `dream skip batch ${dec.key}`, skill: 'dream' });
      if (!w.ok) return { outcome: 'idle', reason: `journal_${w.reason}: ${w.message}`, next_eligible: null, pending: pendingBefore };
      this.#s = {
        ...this.#s,
        ...afterSkip(this.#s, dec.key, pendingBefore - dec.batch.length),
        lastRun: this.#last(id, 'skipped', dec.key, null, `failed ${dec.failures} times`),
      };
      d.state.save(this.#s);
      d.event('dream_batch_skipped', { batch: dec.key, failures: dec.failures, watermark: last });
      return { outcome: 'skipped', batch: dec.key, failures: dec.failures, watermark: last };
    }
    this.#running = { id, batch: dec.key };
    this.#s = { ...state, running: { id, batch: dec.key } };
    d.state.save(this.#s);
    d.event('dream_started', { run: id, batch: dec.key, mode: dec.mode, facts: dec.facts });
    const r = await runBatch({ ...d, today: () => localDate(d.now(), d.tz) }, { id, batch: dec.batch, key: dec.key });
    const next = afterAttempt(this.#s, {
      key: dec.key,
      nowMs: now,
      progress: r.outcome === 'consolidated',
      pendingBefore,
      batchDays: dec.batch.length,
      maxDays: d.gate.max_days,
    });
    if (!r.counts_as_failure && r.outcome !== 'consolidated') next.failures = { ...this.#s.failures };
    this.#s = { ...next, running: null, lastRun: this.#last(id, r.outcome, dec.key, r, r.reason) };
    d.state.save(this.#s);
    if (r.outcome === 'consolidated' && d.afterRun) await d.afterRun(r);
    return { ...r, outcome: r.outcome };
  }
}
