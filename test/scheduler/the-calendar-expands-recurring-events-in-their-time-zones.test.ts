// The calendar meeting notes are polled from, read with ical.js: the example vault's team.ics expands its weekly
// meeting with the EXDATE left out and the moved, renamed occurrence in its new slot, times in the file's VTIMEZONE
// across a DST change; a TZID without a VTIMEZONE is read as an IANA zone, a floating time in scheduler.tz; a poll
// picks the meetings that ended within lookback_hours; text that is not iCalendar is a failure with a reason.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { Calendar, endedWithin, parseCalendar } from '../../actors/scheduler/calendar.js';
import { EXAMPLE_VAULT } from '../helpers/daemon.js';

const ICS = readFileSync(path.join(EXAMPLE_VAULT, 'Calendar/team.ics'), 'utf8');
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

t.test('the weekly meeting: every Thursday 11:00 Berlin, except the EXDATE, with the moved occurrence', async (t) => {
  const cal = new Calendar(ICS, 'UTC');
  const atlas = cal.between(at('2026-10-01T00:00:00Z'), at('2026-12-01T00:00:00Z')).filter((o) => o.uid.startsWith('atlas'));
  t.same(
    atlas.map((o) => iso(o.start)),
    [
      '2026-10-08T09:00:00.000Z', // CEST (UTC+2)
      '2026-10-15T09:00:00.000Z',
      '2026-10-22T09:00:00.000Z',
      '2026-10-29T10:00:00.000Z', // CET (UTC+1) after 25 October
      '2026-11-05T10:00:00.000Z',
      '2026-11-19T10:00:00.000Z', // 12 November is an EXDATE
      '2026-11-26T13:00:00.000Z', // moved to 14:00 Berlin
    ],
  );
  const moved = atlas.at(-1)!;
  t.match(moved, {
    summary: 'Atlas migration review (rollback rehearsal debrief)',
    recurrenceId: '2026-11-26T10:00:00.000Z',
    recurring: true,
  });
  t.same(
    moved.attendees.map((a) => a.name),
    ['Priya Raman', 'Maya Chen', 'Tom Okafor'],
    'the exception’s own attendees',
  );
  t.same(
    atlas[4]!.attendees,
    [
      { name: 'Priya Raman', email: 'priya@ledgerline.example' },
      { name: 'Maya Chen', email: 'maya@ledgerline.example' },
      { name: 'Tom Okafor', email: 'tom@ledgerline.example' },
      { name: 'Lena Fischer', email: 'lena@ledgerline.example' },
      { name: 'Sofia Marques', email: 'sofia@pgconsult.example' },
    ],
    'the room (CUTYPE=ROOM, NON-PARTICIPANT) is not an attendee',
  );
});

t.test('a poll picks the meetings that ended within the lookback, and only those', async (t) => {
  const cal = new Calendar(ICS, 'UTC');
  t.same(
    endedWithin(cal, at('2026-11-26T15:30:00Z'), 24 * 3_600_000).map((o) => o.summary),
    ['Atlas migration review (rollback rehearsal debrief)'],
  );
  t.same(
    endedWithin(cal, at('2026-11-26T13:59:00Z'), 24 * 3_600_000).map((o) => o.summary),
    [],
    'still running at 13:59 UTC: not yet',
  );
  t.same(
    endedWithin(cal, at('2026-11-20T14:00:00Z'), 48 * 3_600_000).map((o) => o.summary),
    ['Atlas migration review', 'Billing export retro'],
  );
});

t.test('a TZID without a VTIMEZONE is an IANA zone; a floating time is in scheduler.tz', async (t) => {
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'BEGIN:VEVENT',
    'UID:ny',
    'DTSTAMP:20261101T000000Z',
    'SUMMARY:New York call',
    'DTSTART;TZID=America/New_York:20261110T090000',
    'DTEND;TZID=America/New_York:20261110T093000',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:floating',
    'DTSTAMP:20261101T000000Z',
    'SUMMARY:Floating',
    'DTSTART:20261110T090000',
    'DTEND:20261110T100000',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  const [floating, ny] = new Calendar(ics, 'Europe/Berlin').between(0, at('2027-01-01T00:00:00Z'));
  t.equal(iso(ny!.start), '2026-11-10T14:00:00.000Z', '09:00 in New York (EST)');
  t.equal(iso(floating!.start), '2026-11-10T08:00:00.000Z', '09:00 in Berlin');
});

t.test('text that is not iCalendar is calendar_invalid', async (t) => {
  const r = parseCalendar('this is not a calendar', 'UTC');
  t.equal(r.ok, false);
  t.match(r, { reason: 'calendar_invalid', message: /not an iCalendar file/ });
});
