// Calendar arithmetic in the scheduler's time zone with the platform's Intl data: the local date of an instant, a
// local day as an instant range (DST days are 23 or 25 hours), ISO weeks, and wall-clock times for notes.

const parts = (ms: number, tz: string): Record<string, number> => {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
};

/** How far `tz`'s wall clock is ahead of UTC at `ms`. */
export function zoneOffsetMs(ms: number, tz: string): number {
  const p = parts(ms, tz);
  const asUtc = Date.UTC(p['year']!, p['month']! - 1, p['day']!, p['hour']!, p['minute']!, p['second']!);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** `YYYY-MM-DD` of `ms` in `tz`. */
export function localDate(ms: number, tz: string): string {
  const p = parts(ms, tz);
  return `${p['year']}-${String(p['month']).padStart(2, '0')}-${String(p['day']).padStart(2, '0')}`;
}

/** `HH:MM` of `ms` in `tz`. */
export function localTime(ms: number, tz: string): string {
  const p = parts(ms, tz);
  return `${String(p['hour']).padStart(2, '0')}:${String(p['minute']).padStart(2, '0')}`;
}

/** The instant a wall-clock time in `tz` stands for (the earlier one when a DST change makes it twice). */
export function zonedToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, tz: string): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  const first = guess - zoneOffsetMs(guess, tz);
  return guess - zoneOffsetMs(first, tz);
}

export function isDate(s: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)
  );
}

/** The local day `date` in `tz` as [start, end) instants. */
export function dayRange(date: string, tz: string): [number, number] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return [zonedToUtc(y, m, d, 0, 0, 0, tz), zonedToUtc(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, 0, 0, tz)];
}

export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

export function weekdayName(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
}

/** The ISO week `date` falls in: label `YYYY-Www` (the week's Thursday decides the year), Monday and Sunday. */
export function isoWeek(date: string): { label: string; start: string; end: string } {
  const day = new Date(`${date}T00:00:00Z`);
  const dow = (day.getUTCDay() + 6) % 7; // Monday 0
  const start = addDays(date, -dow);
  const thursday = new Date(`${addDays(start, 3)}T00:00:00Z`);
  const year = thursday.getUTCFullYear();
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const week1Monday = Date.UTC(year, 0, 4 - ((jan4.getUTCDay() + 6) % 7));
  const week = Math.round((Date.parse(`${start}T00:00:00Z`) - week1Monday) / (7 * 86_400_000)) + 1;
  return { label: `${year}-W${String(week).padStart(2, '0')}`, start, end: addDays(start, 6) };
}
