// A scheduler core on a manual wall clock with its state in a real file in a temp dir: records every run it starts
// (with the clock's time then) and every event it logs; `pass` moves time in steps, letting runs finish between.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CoreJob, type RunReport, type RunRequest, SchedulerCore } from '../../../actors/scheduler/core.js';
import { FileStateStore } from '../../../actors/scheduler/state-file.js';
import { ManualClock } from '../../helpers/manual-clock.js';

export interface RunSeen extends RunRequest {
  /** The wall clock when the run started. */
  at: number;
}

export interface Rig {
  clock: ManualClock;
  dir: string;
  runs: RunSeen[];
  /** `level`: 'debug' when the core logs the event below info. */
  events: Array<{ event: string; fields: Record<string, unknown>; level?: 'debug' }>;
  /** Why a job idles (no LLM …); absent: it may run. */
  idle: Map<string, string>;
  /** What runs answer; `hold` makes them wait for `release`. */
  answer: RunReport;
  hold: boolean;
  release(): void;
  core: SchedulerCore;
  /** A new core on the same state file (a restart), at the clock's current time. */
  restart(jobs?: CoreJob[]): SchedulerCore;
}

const DONE: RunReport = { outcome: 'written', path: 'Reflections/x.md', commit: 'abc', reason: null, results: [] };

export const flush = () => new Promise<void>((r) => setImmediate(r));

export function coreRig(
  t: { teardown(fn: () => unknown): void },
  jobs: CoreJob[],
  opts: { start: string; catchUpHours?: number; tz?: string },
): Rig {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-sched-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const clock = new ManualClock(Date.parse(opts.start));
  let waiting: Array<() => void> = [];
  const rig: Rig = {
    clock,
    dir,
    runs: [],
    events: [],
    idle: new Map(),
    answer: DONE,
    hold: false,
    release() {
      const w = waiting;
      waiting = [];
      for (const f of w) f();
    },
    core: null as unknown as SchedulerCore,
    restart(js = jobs) {
      rig.core.stop();
      rig.core = make(js);
      rig.core.start();
      return rig.core;
    },
  };
  const make = (js: CoreJob[]) =>
    new SchedulerCore({
      clock,
      store: new FileStateStore(dir),
      jobs: js,
      tz: opts.tz ?? 'UTC',
      catchUpMs: (opts.catchUpHours ?? 24) * 3_600_000,
      idle: (job) => rig.idle.get(job) ?? null,
      log: (event, fields, level) => rig.events.push({ event, fields, ...(level ? { level } : {}) }),
      run: async (req) => {
        rig.runs.push({ ...req, at: clock.now() });
        if (rig.hold) await new Promise<void>((r) => waiting.push(r));
        return rig.answer;
      },
    });
  rig.core = make(jobs);
  t.teardown(() => rig.core.stop());
  return rig;
}

/** Moves the clock forward by `ms` in steps of `stepMs`, letting started runs finish after each step. */
export async function pass(clock: ManualClock, ms: number, stepMs = 1_000): Promise<void> {
  for (let left = ms; left > 0; left -= stepMs) {
    clock.advance(Math.min(stepMs, left));
    await flush();
    await flush();
  }
}

export const cron = (name: string, expr: string, tz = 'UTC'): CoreJob => ({ name, enabled: true, schedule: { kind: 'cron', expr, tz } });
export const every = (name: string, seconds: number): CoreJob => ({
  name,
  enabled: true,
  schedule: { kind: 'interval', everyMs: seconds * 1000 },
});
export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
