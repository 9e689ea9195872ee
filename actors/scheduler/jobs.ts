// The scheduler's jobs, from the settings: each skill with its schedule (its cron, or the meeting poll's interval),
// whether it is on (by default when an LLM is configured), and why it would idle now.
import type { Config } from '../../config/load.js';
import type { CoreJob } from './core.js';
import { commitmentLog } from './skills/commitment-log.js';
import { dailyReflection } from './skills/daily-reflection.js';
import { meetingNote } from './skills/meeting-note.js';
import { personProfile } from './skills/person-profile.js';
import type { Skill } from './skills/skill.js';
import { sleep } from './skills/sleep.js';
import { weeklyReview } from './skills/weekly-review.js';
import type { OwnJob } from './skills/skill.js';
import { curationJob } from './skills/curation.js';

export const SKILLS: readonly Skill[] = [meetingNote, dailyReflection, commitmentLog, weeklyReview, personProfile, sleep];

/** Jobs configured in their own section (not under `skills:`). */
export const OWN_JOBS: readonly OwnJob[] = [curationJob];

export function skillNamed(name: string): Skill | OwnJob | undefined {
  return SKILLS.find((s) => s.name === name) ?? OWN_JOBS.find((j) => j.name === name);
}

export function coreJobs(cfg: Config, tz: string): CoreJob[] {
  const skills: CoreJob[] = SKILLS.map((s) => {
    const sc = cfg.skills[s.name];
    const enabled = sc.enabled ?? cfg.llm !== undefined;
    const schedule: CoreJob['schedule'] =
      'cron' in sc ? { kind: 'cron', expr: sc.cron, tz } : { kind: 'interval', everyMs: cfg.skills.meeting_note.poll_interval_s * 1000 };
    return { name: s.name, enabled, schedule };
  });
  const own = OWN_JOBS.map((j): CoreJob => {
    const s = j.settings(cfg);
    return { name: j.name, enabled: s.enabled, schedule: { kind: 'cron', expr: s.cron, tz } };
  });
  return [...skills, ...own];
}

/**
 * Why `skill` cannot run now: the LLM idles (`llmIdle`), or its own settings are missing; null when it can. A run
 * someone asked for (`manual`) tries an endpoint that was marked down: its answer is the freshest check there is.
 */
export function idleReason(cfg: Config, skill: Pick<Skill, 'llm' | 'unready'>, llmIdle: string | null, manual = false): string | null {
  if (skill.llm && llmIdle && !(manual && cfg.llm)) return llmIdle;
  return skill.unready?.(cfg) ?? null;
}
