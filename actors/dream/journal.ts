// The consolidation journal, `Memory/log.md`: one line per batch done — consolidated (with its run, pages changed,
// facts covered and not) or skipped after max_retries — each carrying `watermark=YYYY-MM-DD`. The last such line is
// the watermark; undoing a run's commits takes its line back and the batch is pending again.

export interface JournalEntry {
  at: string;
  watermark: string;
  outcome: 'consolidated' | 'skipped';
  batch: string;
  run?: string;
  pages?: number;
  covered?: number;
  uncovered?: number;
  failures?: number;
}

const LINE = /^- (\S+) watermark=(\d{4}-\d{2}-\d{2})\b(.*)$/;

export function formatEntry(e: JournalEntry): string {
  const f = [`- ${e.at} watermark=${e.watermark} outcome=${e.outcome} batch=${e.batch}`];
  if (e.run !== undefined) f.push(`run=${e.run}`);
  for (const k of ['pages', 'covered', 'uncovered', 'failures'] as const) if (e[k] !== undefined) f.push(`${k}=${e[k]}`);
  return f.join(' ');
}

/** The watermark: the last `watermark=` line's date (null when none). */
export function readWatermark(text: string | null): string | null {
  if (!text) return null;
  let w: string | null = null;
  for (const line of text.split('\n')) {
    const m = LINE.exec(line.trimEnd());
    if (m) w = m[2]!;
  }
  return w;
}
