// Retention: how old an episode may be before the sweep removes it, per source type. Times are instants (epoch ms)
// compared as numbers: the seed's SQLite `datetime('now')` string against ISO `T` strings removed a day too much.

export const DAY_MS = 86_400_000;

type Days = number | 'never';

export interface Cutoffs {
  /** Episodes of each type older than this instant (epoch ms) are removed; a type absent is kept for good. */
  cutoffs: Partial<Record<'chat' | 'task' | 'correction', number>>;
  /** Journal files of days before this instant are dropped (the longest retention); null: kept for good. */
  journalBefore: number | null;
}

export function retentionCutoffs(days: { chat: Days; task: Days; correction: Days }, now: number): Cutoffs {
  const cutoffs: Cutoffs['cutoffs'] = {};
  let longest = 0;
  let forever = false;
  for (const type of ['chat', 'task', 'correction'] as const) {
    const d = days[type];
    if (d === 'never') {
      forever = true;
      continue;
    }
    cutoffs[type] = now - d * DAY_MS;
    longest = Math.max(longest, d);
  }
  // a journal day file holds episodes received that day; one kept a day longer than the longest retention is safe
  return { cutoffs, journalBefore: forever ? null : now - (longest + 1) * DAY_MS };
}
