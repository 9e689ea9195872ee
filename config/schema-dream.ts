// The dream agent's settings (`dream:`): how often the gate is checked, how much a run consolidates, its limits,
// and the folders (zones) it may write pages to. Every knob is described in the README's consolidation section.
import { z } from 'zod';

const zone = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.includes('\\') && !p.split('/').some((s) => s === '..' || s === '.' || s === ''), {
    message: 'a zone is a vault-relative folder like Memory/Wiki (no leading /, no .., no backslash)',
  });

export const dreamSchema = z
  .object({
    /** Off: the gate never runs on its own (`memvault consolidate` still works). Default on when an LLM is configured. */
    enabled: z.boolean().optional(),
    /** How often the gate is checked, seconds. */
    interval_s: z
      .number()
      .int()
      .min(10)
      .max(7 * 86_400)
      .default(1800),
    /** Days per batch; more pending than this is a catch-up sprint (one batch per tick). */
    max_days: z.number().int().min(1).max(366).default(14),
    /** Steady state: at least this long since the last attempt… */
    min_hours: z
      .number()
      .min(0)
      .max(24 * 31)
      .default(24),
    /** …and at least this many fact lines pending. */
    min_facts: z.number().int().min(0).max(1_000_000).default(20),
    /** A batch that failed this many times is skipped (its facts stay in the log, searchable). */
    max_retries: z.number().int().min(1).max(100).default(3),
    /** Tool calls per run at most. */
    max_steps: z.number().int().min(1).max(1000).default(40),
    /** A run's wall-clock limit, seconds. */
    timeout_s: z.number().min(1).max(86_400).default(600),
    /** Folders the dream may write pages to. */
    zones: z.array(zone).min(1).default(['Memory/Wiki']),
    /** MEMORY.md's length cap, lines. */
    memory_max_lines: z.number().int().min(10).max(10_000).default(200),
  })
  .strict();
