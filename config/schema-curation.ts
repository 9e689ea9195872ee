// USER.md curation's settings (`curation:`): off unless asked for, when it runs, and how many days of the fact log
// the model is shown. The rules of the run itself are in the README's curation section.
import { z } from 'zod';
import { cronExpr } from './schema-skills.js';

export const curationSchema = z
  .object({
    /** Opt-in: the run edits the person's own USER.md, so it never runs (on the clock or on request) unless true. */
    enabled: z.boolean().default(false),
    /** When it runs, in scheduler.tz: 04:30 every day, after the night's person profiles (03:15). */
    schedule: cronExpr.default('30 4 * * *'),
    /** Days of the fact log (today included) shown to the model as recent material. */
    lookback_days: z.number().int().min(1).max(60).default(3),
    /** The recent material is cut to this many characters (newest kept). */
    max_material_chars: z.number().int().min(1_000).max(500_000).default(20_000),
  })
  .strict();
