// The scheduler's part of the clock-jump run: a job every 2 s (daily_reflection, its LLM a chat-completions server on
// loopback) in the daemon under libfaketime, and the checks on what it fired in each phase — before the jumps it
// runs, a day back it runs nothing (every slot then due was run already), a year forward it runs once and then every
// 2 s (no burst for the skipped slots), back to now it runs nothing, and no slot ever runs twice.
import { readFileSync } from 'node:fs';
import { FakeLlm } from '../helpers/fake-llm.js';
import type { Checks } from './disk-common.js';

export const SCHEDULER_EVERY_S = 2;
/** A phase after a step back lasts at least this long: a scheduler running old slots again would have by then. */
export const SCHEDULER_HOLD_MS = 5_000;

export const SCHEDULER_YAML = (llmUrl: string): string =>
  [
    `llm:\n  base_url: ${llmUrl}\n  models: { default: chaos-model }\n  max_retries: 0\n  timeout_s: 5\n`,
    'scheduler:\n  tz: UTC\n',
    'skills:\n',
    `  daily_reflection: { cron: "*/${SCHEDULER_EVERY_S} * * * * *" }\n`,
    ...['meeting_note', 'commitment_log', 'weekly_review', 'person_profile', 'sleep'].map((n) => `  ${n}: { enabled: false }\n`),
  ].join('');

/** A model that answers every reflection prompt with plain text (no links, so no person stubs). */
export async function startSchedulerLlm(): Promise<FakeLlm> {
  const llm = await FakeLlm.start();
  llm.respond(() => ({ content: JSON.stringify({ summary: 'A quiet day.', highlights: [], open_loops: [], tomorrow: [] }) }));
  return llm;
}

interface Fired {
  slot: string;
  trigger: string;
  offset: number;
}

function fired(logFile: string): Fired[] {
  const out: Fired[] = [];
  let offset = 0;
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    const at = offset;
    offset += Buffer.byteLength(line) + 1;
    if (!line.includes('scheduler_job_fired')) continue;
    try {
      const o = JSON.parse(line) as { event?: string; job?: string; slot?: string; trigger?: string };
      if (o.event === 'scheduler_job_fired' && o.job === 'daily_reflection' && o.slot)
        out.push({ slot: o.slot, trigger: o.trigger ?? '', offset: at });
    } catch {
      // a line cut short
    }
  }
  return out;
}

/** Resolves once the scheduler has fired after `offset` in the log (true), or after `ms` without (false). */
export async function firedSince(logFile: string, offset: number, ms: number): Promise<boolean> {
  for (const until = performance.now() + ms; performance.now() < until; await new Promise((r) => setTimeout(r, 100)))
    if (fired(logFile).some((f) => f.offset >= offset)) return true;
  return false;
}

export function schedulerChecks(c: Checks, logFile: string, phases: Array<{ name: string; offset: number; ms: number }>): void {
  const all = fired(logFile);
  const slots = all.map((f) => f.slot);
  const dupes = slots.filter((s, i) => slots.indexOf(s) !== i);
  c.add(
    'clock.scheduler_no_slot_twice',
    dupes.length === 0,
    dupes.length ? `ran twice: ${dupes.join(', ')}` : `${all.length} runs, every slot once`,
  );
  const inPhase = (i: number) => all.filter((f) => f.offset >= (phases[i]?.offset ?? 0) && f.offset < (phases[i + 1]?.offset ?? Infinity));
  const before = all.filter((f) => f.offset < (phases[0]?.offset ?? Infinity));
  c.add(
    'clock.scheduler_runs_before_the_jumps',
    before.length >= 1,
    `${before.length} runs every ${SCHEDULER_EVERY_S} s before the first jump`,
  );
  phases.forEach((p, i) => {
    const runs = inPhase(i);
    const seconds = Math.round(p.ms / 1000);
    if (p.name === 'forward_1_year') {
      const most = Math.ceil(seconds / SCHEDULER_EVERY_S) + 1;
      c.add(
        `clock.${p.name}.scheduler_no_burst`,
        runs.length >= 1 && runs.length <= most,
        `${runs.length} runs in ${seconds} s (at most ${most}); first ${runs[0]?.slot ?? 'none'} (${runs[0]?.trigger ?? ''})`,
      );
    } else {
      // a slot of the timeline left behind may still fire as the step lands; none of the new, earlier one may
      const ranBefore = all.filter((f) => f.offset < p.offset).map((f) => f.slot);
      const latest = ranBefore.sort().at(-1) ?? ''; // ISO instants sort as they happened
      const old = runs.filter((r) => r.slot <= latest);
      c.add(
        `clock.${p.name}.scheduler_reruns_nothing`,
        old.length === 0,
        old.length
          ? `ran again at or before ${latest}: ${old.map((r) => r.slot).join(', ')}`
          : `no slot at or before ${latest || 'the last one run'} in ${seconds} s (${runs.length} of the old timeline as the step landed)`,
      );
    }
  });
}
