// The scheduler's settings: its time zone and catch-up window, the skills (jobs that draft notes with the LLM) with
// their schedules, autonomy and knobs, the calendar meeting notes come from, and a folder of template overrides.
import { Cron } from 'croner';
import { z } from 'zod';

/** Whether `tz` is an IANA time zone this runtime knows. */
export function validZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * A cron expression croner accepts: 5 fields (minute hour day month weekday), or 6 with seconds first — and one that
 * ever fires: `0 0 31 2 *` (31 February) parses, but its job would sit `scheduled` with no next run for good.
 */
export const cronExpr = z.string().superRefine((expr, ctx) => {
  let cron: Cron;
  try {
    cron = new Cron(expr, { paused: true, mode: '5-or-6-parts' });
  } catch (err) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `not a cron expression (${(err as Error).message}); e.g. "30 22 * * *" is 22:30 every day`,
    });
    return;
  }
  if (cron.nextRun() === null)
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `"${expr}" never fires: no date matches its day and month (such as 31 February); e.g. "30 22 * * *" is 22:30 every day`,
    });
});

const zone = z.string().refine(validZone, 'must be an IANA time zone such as Europe/Berlin or America/New_York');

const autonomy = z.enum(['low', 'medium', 'high']).default('medium');
/** Every skill: on by default when an LLM is configured; low autonomy writes to Inbox/ whatever the skill asked. */
const skill = { enabled: z.boolean().optional(), autonomy };

const skillsSchema = z
  .object({
    meeting_note: z
      .object({
        ...skill,
        poll_interval_s: z.number().int().min(10).max(86_400).default(300),
        lookback_hours: z
          .number()
          .positive()
          .max(24 * 14)
          .default(24),
        /** Attendees (name or email) never linked, e.g. the vault's owner. */
        ignore_attendees: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .default({}),
    daily_reflection: z
      .object({ ...skill, cron: cronExpr.default('30 22 * * *') })
      .strict()
      .default({}),
    commitment_log: z
      .object({ ...skill, cron: cronExpr.default('45 22 * * *') })
      .strict()
      .default({}),
    weekly_review: z
      .object({ ...skill, cron: cronExpr.default('0 18 * * 0') })
      .strict()
      .default({}),
    person_profile: z
      .object({
        ...skill,
        cron: cronExpr.default('15 3 * * *'),
        /** A People note linked from at least this many notes changed within lookback_days gets a profile. */
        mention_threshold: z.number().int().min(1).default(3),
        lookback_days: z.number().int().min(1).max(365).default(30),
        /** A People note with less body than this is a stub to fill. */
        min_body_chars: z.number().int().min(0).default(200),
        /** Profiles written per run at most (each is one LLM call). */
        max_per_run: z.number().int().min(1).max(100).default(5),
      })
      .strict()
      .default({}),
    /**
     * The nightly extraction (actors/scheduler/skills/sleep.ts): memories and facts from what happened since its last
     * run. `autonomy` low: memories only, no facts written into notes. 02:45: before the person profiles (03:15) and
     * the USER.md curation (04:30), so both read the night's memories and facts, and never at the same minute.
     */
    sleep: z
      .object({
        ...skill,
        cron: cronExpr.default('45 2 * * *'),
        /** Characters of episodes and fact log shown to the model (interactive 80 %, the rest 20 %). */
        budget_chars: z.number().int().min(1_000).max(1_000_000).default(50_000),
      })
      .strict()
      .default({}),
    /** After any autowrite, `People/Name.md` stubs for the bare [[Name]] links that have no note. */
    person_stubs: z
      .object({ enabled: z.boolean().default(true) })
      .strict()
      .default({}),
  })
  .strict();

export const schedulerSchema = z
  .object({
    /** The zone cron expressions and dates are read in; default the system's. */
    tz: zone.optional(),
    /** A run missed while the daemon was down (or the LLM unreachable) is made up once if it is at most this old. */
    catch_up_hours: z
      .number()
      .min(0)
      .max(24 * 31)
      .default(24),
  })
  .strict();

export const calendarSchema = z
  .object({
    ics_path: z.string().min(1).optional(),
    ics_url: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//i.test(u), 'must use http or https')
      .optional(),
  })
  .strict()
  .refine((c) => !(c.ics_path && c.ics_url), { message: 'set ics_path or ics_url, not both', path: ['ics_url'] });

export const templatesSchema = z
  .object({
    /** A folder with `vault/*.liquid` and/or `llm/*.liquid` that replace the bundled templates of the same name. */
    dir: z.string().min(1).optional(),
  })
  .strict();

export { skillsSchema };
export type SkillsConfig = z.infer<typeof skillsSchema>;
export type SkillName = Exclude<keyof SkillsConfig, 'person_stubs'>;
