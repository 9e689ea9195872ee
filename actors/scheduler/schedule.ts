// When a job is due: a cron expression read in a time zone (croner), or a fixed interval. Slots are wall-clock
// instants (epoch ms); the scheduler remembers the last slot it handled, so each slot runs at most once.
import { Cron } from 'croner';

export type Schedule = { kind: 'cron'; expr: string; tz: string } | { kind: 'interval'; everyMs: number };

export class Slots {
  readonly #cron: Cron | null;

  constructor(readonly schedule: Schedule) {
    this.#cron = schedule.kind === 'cron' ? new Cron(schedule.expr, { timezone: schedule.tz, paused: true, mode: '5-or-6-parts' }) : null;
  }

  /** The latest cron slot at or before `at`, or null (an expression that never matched before). */
  latestAtOrBefore(at: number): number | null {
    const prev = this.#cron?.previousRuns(1, new Date(at + 1))[0];
    return prev ? prev.getTime() : null;
  }

  /** The first cron slot strictly after `at`, or null. */
  nextAfter(at: number): number | null {
    return this.#cron?.nextRun(new Date(at))?.getTime() ?? null;
  }

  /** How many cron slots fall in (from, to) — the runs a catch-up stands for; capped so a year-long gap stays cheap. */
  countBetween(from: number, to: number, cap = 10_000): number {
    if (!this.#cron) return 0;
    let n = 0;
    for (let s = this.nextAfter(from); s !== null && s < to && n < cap; s = this.nextAfter(s)) n++;
    return n;
  }

  describe(): string {
    return this.schedule.kind === 'cron' ? this.schedule.expr : `every ${Math.round(this.schedule.everyMs / 1000)} s`;
  }
}

/** The process's own time zone (what `scheduler.tz` defaults to). */
export function systemZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
