// The scheduler's logic, without a thread: when each job is due (cron slots in a time zone, or an interval), which
// slot a run is for, and what is remembered across restarts (state-file.ts). Each cron slot runs at most once: a
// restart neither repeats nor skips one, a run cut off by a crash runs again, runs missed while the daemon was down
// are made up once (the latest, within catch_up_hours), and wall-clock jumps either way never run a slot twice.
// Time comes from an injected Clock whose now() is wall-clock ms, so tests drive it and never sleep.
import type { JobInfo, JobRunResult, LastRun, NoteOutcome } from '../../messages/to-scheduler.js';
import type { Clock, TimerHandle } from '../../supervisors/clock.js';
import { type Schedule, Slots } from './schedule.js';
import { EMPTY_JOB, type JobState, type StateStore } from './state-file.js';

export interface CoreJob {
  name: string;
  schedule: Schedule;
  /** Off: never run by the clock (a manual run still works). */
  enabled: boolean;
}

export interface RunRequest {
  job: string;
  trigger: LastRun['trigger'];
  /** The cron slot this run is for (epoch ms), or null (interval and manual runs). */
  slot: number | null;
  date?: string;
  event?: string;
}

/** What a job's run came to; `retry` marks a failure worth making up later (the LLM was unreachable). */
export interface RunReport extends NoteOutcome {
  results: NoteOutcome[];
  retry?: boolean;
}

export type SchedulerEvent =
  | 'scheduler_job_fired'
  | 'scheduler_job_done'
  | 'scheduler_job_idle'
  | 'scheduler_slots_missed'
  | 'scheduler_slot_dropped'
  | 'scheduler_state_unsaved';

export interface CoreDeps {
  clock: Clock;
  store: StateStore;
  jobs: CoreJob[];
  tz: string;
  catchUpMs: number;
  run(req: RunRequest): Promise<RunReport>;
  /**
   * Why `job` cannot run now (no LLM, no calendar …), or null. `manual`: someone asked for this run, so an endpoint
   * merely marked down is tried again rather than skipped.
   */
  idle(job: string, manual?: boolean): string | null;
  /** At info unless `level` says debug (a poll that found nothing new). */
  log(event: SchedulerEvent, fields: Record<string, unknown>, level?: 'debug'): void;
  /** The longest the scheduler sleeps without looking at the wall clock again (so a jump is noticed): MAX_WAIT_MS. */
  maxWaitMs?: number;
}

/**
 * Timers run on the monotonic clock, so a wall-clock step is seen at the next look: one at least this often. A look
 * costs a few cron computations per job, so it can be frequent.
 */
export const MAX_WAIT_MS = 10_000;
/**
 * A slot run this late or later is labelled a catch-up rather than an on-time run; and one run later than this is on
 * time whatever catch_up_hours says (0 too): a timer fires some ms after its slot, later on a busy machine.
 */
const ON_TIME_MS = 5 * 60_000;
/** An owed slot is tried again this long after a failed try, or at once when the LLM comes back (poke). */
const OWED_RETRY_MS = 10 * 60_000;

export class SchedulerCore {
  readonly #d: CoreDeps;
  readonly #slots = new Map<string, Slots>();
  #state: Record<string, JobState> = {};
  readonly #running = new Map<string, Promise<unknown>>();
  readonly #owedRetryAt = new Map<string, number>();
  /** Per interval job, the reasons its last poll skipped for: a poll skipping for them again has nothing new to say. */
  readonly #pollSkips = new Map<string, Set<string | null>>();
  #timer: TimerHandle | null = null;
  #stopped = false;

  constructor(deps: CoreDeps) {
    this.#d = deps;
    for (const j of deps.jobs) this.#slots.set(j.name, new Slots(j.schedule));
  }

  /** Loads the remembered state, makes up what is owed or was cut off, and arms the timer. */
  start(): void {
    this.#state = this.#d.store.load();
    const now = this.#d.clock.now();
    for (const j of this.#d.jobs) {
      const st = this.#job(j.name);
      // first sight of a cron job: slots before now are not ours to make up
      if (j.schedule.kind === 'cron' && st.lastSlot === null) st.lastSlot = this.#slots.get(j.name)!.latestAtOrBefore(now) ?? now;
    }
    this.#save();
    this.tick();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) this.#d.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Looks at every job now: runs what is due, then sleeps until the next one (at most maxWaitMs). */
  tick(): void {
    if (this.#stopped) return;
    for (const j of this.#d.jobs) if (j.enabled && !this.#running.has(j.name)) this.#check(j);
    this.#arm();
  }

  /** Something a job needs came back (the LLM): run what is owed now rather than at the next look. */
  poke(): void {
    this.#owedRetryAt.clear();
    this.tick();
  }

  /** Runs `job` now for `date`/`event` (memvault run, POST /v1/jobs/<job>/run), after any run of it under way. */
  async runNow(job: string, opts: { date?: string; event?: string } = {}): Promise<JobRunResult | null> {
    if (!this.#slots.has(job)) return null;
    for (let r = this.#running.get(job); r; r = this.#running.get(job)) await r.catch(() => undefined);
    return this.#run(job, { job, trigger: 'manual', slot: null, ...opts });
  }

  /** Every job with its schedule, state, next and last run. */
  list(): JobInfo[] {
    const now = this.#d.clock.now();
    return this.#d.jobs.map((j) => {
      const st = this.#state[j.name] ?? EMPTY_JOB;
      const idle = this.#d.idle(j.name);
      const next = j.enabled ? this.#nextDue(j, st, now) : null;
      return {
        name: j.name,
        enabled: j.enabled,
        state: !j.enabled ? 'disabled' : this.#running.has(j.name) ? 'running' : idle ? 'idle' : 'scheduled',
        reason: j.enabled ? idle : null,
        schedule: this.#slots.get(j.name)!.describe(),
        tz: this.#d.tz,
        next_run: next === null ? null : new Date(Math.max(next, now)).toISOString(),
        last_run: st.lastRun,
      };
    });
  }

  #check(j: CoreJob): void {
    const now = this.#d.clock.now();
    const st = this.#state[j.name]!;
    if (j.schedule.kind === 'interval') {
      const every = j.schedule.everyMs;
      // the wall clock went back: never wait longer than one interval for the next run
      if (st.nextAt === null || st.nextAt - now > every) st.nextAt = st.nextAt === null ? now : now + every;
      if (now >= st.nextAt) {
        st.nextAt = now + every;
        void this.#run(j.name, { job: j.name, trigger: 'schedule', slot: null });
      }
      return;
    }
    const slots = this.#slots.get(j.name)!;
    const catchUp = this.#d.catchUpMs;
    // a run a crash cut off runs once more, however long ago (the skills' idempotency keys make a finished half
    // cost nothing): catch_up_hours is about slots missed while down, not about a run that had started
    if (st.runningSlot !== null) {
      const slot = st.runningSlot;
      st.runningSlot = null;
      if (now >= slot) {
        void this.#run(j.name, { job: j.name, trigger: 'catch_up', slot });
        return;
      }
    }
    const latest = slots.latestAtOrBefore(now);
    if (latest !== null && (st.lastSlot === null || latest > st.lastSlot)) {
      const late = now - latest;
      const missed = st.lastSlot === null ? 0 : slots.countBetween(st.lastSlot, latest);
      if (late <= this.#runnable()) {
        if (missed > 0) this.#d.log('scheduler_slots_missed', { job: j.name, missed, caught_up: new Date(latest).toISOString() });
        void this.#run(j.name, { job: j.name, trigger: late >= ON_TIME_MS ? 'catch_up' : 'schedule', slot: latest });
        return;
      }
      // too old to make up (catch_up_hours): passed over, and said so
      st.lastSlot = latest;
      this.#d.log('scheduler_slot_dropped', { job: j.name, slot: new Date(latest).toISOString(), missed: missed + 1, late_ms: late });
      this.#save();
    }
    if (st.owedSlot !== null) {
      const owed = st.owedSlot;
      if (now - owed > catchUp) {
        st.owedSlot = null;
        this.#d.log('scheduler_slot_dropped', { job: j.name, slot: new Date(owed).toISOString(), missed: 1, owed: true });
        this.#save();
      } else if (this.#d.idle(j.name) === null && now >= (this.#owedRetryAt.get(j.name) ?? 0))
        void this.#run(j.name, { job: j.name, trigger: 'catch_up', slot: owed });
    }
  }

  #job(name: string): JobState {
    const had = this.#state[name];
    if (had) return had;
    const st = { ...EMPTY_JOB };
    this.#state[name] = st;
    return st;
  }

  async #run(job: string, req: RunRequest): Promise<JobRunResult> {
    const st = this.#job(job);
    let started = this.#d.clock.now();
    const t0 = performance.now();
    if (req.slot !== null) {
      st.lastSlot = Math.max(st.lastSlot ?? req.slot, req.slot);
      st.runningSlot = req.slot;
      if (st.owedSlot !== null && st.owedSlot <= req.slot) st.owedSlot = null;
    }
    const idle = this.#d.idle(job, req.trigger === 'manual');
    const poll = req.trigger === 'schedule' && req.slot === null;
    let report: RunReport;
    let settle!: () => void;
    this.#running.set(job, new Promise<void>((r) => (settle = r)));
    try {
      if (idle !== null) {
        report = { outcome: 'skipped', path: null, commit: null, reason: idle, results: [], retry: true };
        // said once per reason, not at every poll of an interval job
        if (st.lastRun?.reason !== idle)
          this.#d.log('scheduler_job_idle', { job, trigger: req.trigger, reason: idle, slot: slotIso(req.slot) });
      } else {
        // the slot under way is on disk before its work starts: a crash from here on runs it again (a manual run
        // has no slot to protect, and saves without waiting for the disk)
        if (req.slot !== null) this.#save();
        started = this.#d.clock.now();
        const fired = { job, trigger: req.trigger, slot: slotIso(req.slot), date: req.date, event_uid: req.event };
        // a poll (the meeting note's, every few minutes) says what it found when it is done, not that it looked
        this.#d.log('scheduler_job_fired', fired, poll ? 'debug' : undefined);
        try {
          report = await this.#d.run(req);
        } catch (err) {
          report = { outcome: 'failed', path: null, commit: null, reason: `internal: ${(err as Error).message}`, results: [] };
        }
      }
      const ms = Math.round(performance.now() - t0);
      if (req.slot !== null) {
        st.runningSlot = null;
        if (report.retry) {
          st.owedSlot = req.slot;
          this.#owedRetryAt.set(job, this.#d.clock.now() + OWED_RETRY_MS);
        }
      }
      st.lastRun = {
        at: new Date(started).toISOString(),
        trigger: req.trigger,
        slot: slotIso(req.slot) ?? null,
        outcome: report.outcome,
        reason: report.reason,
        path: report.path,
        commit: report.commit,
        ms,
      };
      this.#save(req.slot !== null);
      if (idle === null) {
        const done = { job, trigger: req.trigger, outcome: report.outcome, reason: report.reason, path: report.path, ms };
        this.#d.log('scheduler_job_done', done, poll && this.#nothingNew(job, report) ? 'debug' : undefined);
      }
      return { job, outcome: report.outcome, path: report.path, commit: report.commit, reason: report.reason, results: report.results, ms };
    } finally {
      this.#running.delete(job);
      settle();
      if (req.trigger !== 'manual') this.#arm();
    }
  }

  /**
   * Whether a poll's report holds nothing new: only notes already written (skipped_idempotent) and skips for the
   * reasons the previous poll skipped for. Remembers this poll's skip reasons for the next.
   */
  #nothingNew(job: string, report: RunReport): boolean {
    const before = this.#pollSkips.get(job) ?? new Set<string | null>();
    const notes = report.results.length ? report.results : [report];
    const skips = notes.filter((n) => n.outcome === 'skipped').map((n) => n.reason);
    this.#pollSkips.set(job, new Set(skips));
    return notes.every((n) => n.outcome === 'skipped_idempotent' || (n.outcome === 'skipped' && before.has(n.reason)));
  }

  /** When `j` is next due (a past time: due now), or null when nothing is coming. */
  #nextDue(j: CoreJob, st: JobState, now: number): number | null {
    if (j.schedule.kind === 'interval') return st.nextAt ?? now;
    const slots = this.#slots.get(j.name)!;
    const latest = slots.latestAtOrBefore(now);
    if (latest !== null && st.lastSlot !== null && latest > st.lastSlot && now - latest <= this.#runnable()) return latest;
    if (st.owedSlot !== null && this.#d.idle(j.name) === null) return Math.max(st.owedSlot, this.#owedRetryAt.get(j.name) ?? 0);
    return slots.nextAfter(Math.max(now, st.lastSlot ?? now));
  }

  /** How late a slot may still run: catch_up_hours, but never less than an on-time run's lateness. */
  #runnable(): number {
    return Math.max(this.#d.catchUpMs, ON_TIME_MS);
  }

  #arm(): void {
    if (this.#stopped) return;
    if (this.#timer) this.#d.clock.clearTimeout(this.#timer);
    const now = this.#d.clock.now();
    let due = now + (this.#d.maxWaitMs ?? MAX_WAIT_MS);
    for (const j of this.#d.jobs) {
      if (!j.enabled || this.#running.has(j.name)) continue;
      const next = this.#nextDue(j, this.#state[j.name] ?? EMPTY_JOB, now);
      if (next !== null) due = Math.min(due, next);
    }
    this.#timer = this.#d.clock.setTimeout(
      () => {
        this.#timer = null;
        this.tick();
      },
      Math.max(0, due - now),
    );
  }

  #save(durable = true): void {
    try {
      this.#d.store.save(this.#state, durable);
    } catch (err) {
      // a full data disk: runs go on, and a restart before the next save may repeat or miss one — said here
      this.#d.log('scheduler_state_unsaved', { error: (err as Error).message });
    }
  }
}

function slotIso(slot: number | null): string | undefined {
  return slot === null ? undefined : new Date(slot).toISOString();
}
