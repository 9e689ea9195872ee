// The `agents:` and `audit:` settings: the rate an agent gets when `memvault agents add` gave it none, and how much
// audit trail (<data dir>/audit/*.jsonl) is kept before the oldest files are dropped.
import { z } from 'zod';

/** `20/s`, `600/m`, `5000/h`: calls allowed per unit; also the burst an agent may spend at once. */
export const RATE = /^([1-9]\d{0,6})\/(s|m|h)$/;

export const agentsSchema = z
  .object({
    default_rate: z.string().regex(RATE, 'a rate is N/s, N/m or N/h, e.g. "20/s"').default('20/s'),
  })
  .strict();

export const auditSchema = z
  .object({
    // the audit trail at most; the oldest files are dropped first
    max_mb: z.number().min(0.01).max(1_000_000).default(64),
  })
  .strict();
