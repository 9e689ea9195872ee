// The operator's calendar for meeting notes: an .ics file or URL read with ical.js (Mozilla's iCalendar library,
// also under Thunderbird): recurring events expanded with their exceptions (EXDATE, moved or renamed occurrences),
// times read in their VTIMEZONE, a TZID without one read as an IANA zone, floating times in scheduler.tz, attendees
// with their names. Unreadable or unparsable calendars are failures with a reason, never a crash.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ICAL from 'ical.js';
import type { Config } from '../../config/load.js';
import { validZone } from '../../config/schema-skills.js';
import { fail, type Failure } from '../../messages/common.js';
import { zonedToUtc } from './dates.js';

export interface Attendee {
  name: string;
  email: string | null;
}

export interface Occurrence {
  uid: string;
  /** The occurrence's RECURRENCE-ID as an ISO instant; null for a one-off event. */
  recurrenceId: string | null;
  summary: string;
  start: number;
  end: number;
  location: string | null;
  description: string | null;
  attendees: Attendee[];
  recurring: boolean;
}

/** How far a recurring event is expanded at most, so a rule without an end never runs away. */
const MAX_OCCURRENCES = 5_000;
const FETCH_TIMEOUT_MS = 30_000;

/** The calendar's text from `calendar.ics_path` (relative to the config file) or `calendar.ics_url`. */
export async function readCalendar(cfg: Config): Promise<{ ok: true; text: string } | Failure<'no_calendar' | 'calendar_unreadable'>> {
  const c = cfg.calendar;
  if (c?.ics_path) {
    const file = path.resolve(cfg.config_file ? path.dirname(cfg.config_file) : process.cwd(), c.ics_path);
    try {
      return { ok: true, text: await readFile(file, 'utf8') };
    } catch (err) {
      return fail('calendar_unreadable', `${file}: ${(err as Error).message}`);
    }
  }
  if (c?.ics_url) {
    try {
      const r = await fetch(c.ics_url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!r.ok) return fail('calendar_unreadable', `${c.ics_url} answered ${r.status}`);
      return { ok: true, text: await r.text() };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      return fail('calendar_unreadable', `${c.ics_url}: ${e.cause?.code ?? e.message}`);
    }
  }
  return fail('no_calendar', 'set calendar.ics_path or calendar.ics_url for meeting notes');
}

export class Calendar {
  readonly #masters = new Map<string, ICAL.Event>();
  readonly #singles: ICAL.Event[] = [];
  /** TZIDs the file defines with a VTIMEZONE: ical.js reads those itself. */
  readonly #zones = new Set<string>();

  /** Throws SyntaxError (with ical.js's message) when the text is not iCalendar. */
  constructor(
    text: string,
    readonly defaultTz: string,
  ) {
    const comp = new ICAL.Component(ICAL.parse(text));
    for (const tz of comp.getAllSubcomponents('vtimezone')) {
      const id = tz.getFirstPropertyValue('tzid');
      if (typeof id === 'string') {
        this.#zones.add(id);
        if (!ICAL.TimezoneService.has(id)) ICAL.TimezoneService.register(tz);
      }
    }
    const exceptions: ICAL.Event[] = [];
    for (const v of comp.getAllSubcomponents('vevent')) {
      const e = new ICAL.Event(v);
      if (!e.uid || !e.startDate) continue;
      if (e.isRecurrenceException()) exceptions.push(e);
      else if (e.isRecurring()) this.#masters.set(e.uid, e);
      else this.#singles.push(e);
    }
    for (const x of exceptions) this.#masters.get(x.uid)?.relateException(x);
  }

  /** Every occurrence overlapping [from, to), by start. */
  between(from: number, to: number): Occurrence[] {
    const out: Occurrence[] = [];
    for (const e of this.#singles) {
      const o = this.#occurrence(e, e.startDate, e.endDate, null, false);
      if (o.end > from && o.start < to) out.push(o);
    }
    for (const e of this.#masters.values()) {
      const it = e.iterator();
      for (let n = 0, next = it.next(); next && n < MAX_OCCURRENCES; next = it.next(), n++) {
        const d = e.getOccurrenceDetails(next);
        const o = this.#occurrence(d.item, d.startDate, d.endDate, d.recurrenceId, true);
        if (o.start >= to) break;
        if (o.end > from) out.push(o);
      }
    }
    return out.sort((a, b) => a.start - b.start || a.uid.localeCompare(b.uid));
  }

  /** An ical.js time as an instant: its own zone when known, a TZID named by IANA, else scheduler.tz. */
  #instant(t: ICAL.Time, prop: ICAL.Property | null): number {
    const tzid = prop?.getParameter('tzid');
    const zoneId = typeof tzid === 'string' ? tzid : null;
    const known = t.zone && t.zone.tzid !== 'floating';
    if (known && (zoneId === null || this.#zones.has(zoneId) || t.zone?.tzid === 'UTC')) return t.toJSDate().getTime();
    const zone = zoneId && validZone(zoneId) ? zoneId : this.defaultTz;
    return zonedToUtc(t.year, t.month, t.day, t.isDate ? 0 : t.hour, t.isDate ? 0 : t.minute, t.isDate ? 0 : t.second, zone);
  }

  #occurrence(e: ICAL.Event, start: ICAL.Time, end: ICAL.Time | null, rid: ICAL.Time | null, recurring: boolean): Occurrence {
    const s = this.#instant(start, e.component.getFirstProperty('dtstart'));
    const en = end ? this.#instant(end, e.component.getFirstProperty('dtend')) : s;
    const attendees: Attendee[] = [];
    for (const a of e.attendees) {
      const cutype = String(a.getParameter('cutype') ?? 'INDIVIDUAL').toUpperCase();
      const role = String(a.getParameter('role') ?? '').toUpperCase();
      if (cutype === 'ROOM' || cutype === 'RESOURCE' || role === 'NON-PARTICIPANT') continue;
      const value = String(a.getFirstValue() ?? '');
      const email = /^mailto:/i.test(value) ? value.replace(/^mailto:/i, '') : null;
      const cn = a.getParameter('cn');
      const name = typeof cn === 'string' && cn.trim() ? cn.trim() : (email?.split('@')[0] ?? '');
      if (name) attendees.push({ name, email });
    }
    const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
    return {
      uid: e.uid,
      recurrenceId: rid
        ? new Date(
            this.#instant(rid, e.component.getFirstProperty('recurrence-id') ?? e.component.getFirstProperty('dtstart')),
          ).toISOString()
        : null,
      summary: str(e.summary) ?? '(no title)',
      start: s,
      end: en,
      location: str(e.location),
      description: str(e.description),
      attendees,
      recurring,
    };
  }
}

/** Parses `text`, or says why it could not. */
export function parseCalendar(text: string, tz: string): { ok: true; calendar: Calendar } | Failure<'calendar_invalid'> {
  try {
    return { ok: true, calendar: new Calendar(text, tz) };
  } catch (err) {
    return fail('calendar_invalid', `not an iCalendar file: ${(err as Error).message}`);
  }
}

/** Occurrences that ended within the last `lookbackMs` (at or before `now`): the meetings a poll writes notes for. */
export function endedWithin(cal: Calendar, now: number, lookbackMs: number): Occurrence[] {
  return cal.between(now - lookbackMs - 7 * 86_400_000, now + 1).filter((o) => o.end <= now && o.end > now - lookbackMs);
}
