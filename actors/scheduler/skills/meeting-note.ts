// meeting_note: for each calendar event that ended within lookback_hours (polled every poll_interval_s) and has no
// note yet, `Meetings/YYYY-MM-DD <summary>.md` keyed by the event's UID (+ recurrence id), with its attendees linked
// — `[[People/Name]]` when that note exists, else `[[Name]]` — and a context section drafted from the vault (related
// notes, this meeting's earlier notes). `memvault run meeting_note --event UID [--date D]` writes one occurrence.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SOURCE_VAULT } from '../../../messages/common.js';
import type { Attendee as AttendeeVar, MeetingEvent } from '../templates/vars.js';
import { ask } from '../ask.js';
import { type Calendar, endedWithin, type Occurrence, parseCalendar, readCalendar } from '../calendar.js';
import { noteRef } from '../context.js';
import { dayRange, isDate, localDate, localTime } from '../dates.js';
import { type Draft, targetPath, type WriteOutcome } from '../writer.js';
import { autonomyOf, combine, type Skill, type SkillEnv } from './skill.js';

const Answer = z.object({
  summary: z.string().min(1),
  context: z.array(z.string()).default([]),
  open_items: z.array(z.string()).default([]),
  follow_ups: z.array(z.string()).default([]),
});

/** A summary as a file name: no characters a vault path or Obsidian refuses, at most 100 characters. */
export function fileSafe(summary: string): string {
  const s = summary
    .replace(/[\\/:*?"<>|#^[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return (s || 'Meeting').slice(0, 100).trim();
}

/** `[[People/Name]]` when the vault has that note, else `[[Name]]` (which the person stubs then give a page). */
export function personLink(vault: string, name: string): string {
  return existsSync(path.join(vault, 'People', `${name}.md`)) ? `[[People/${name}]]` : `[[${name}]]`;
}

export function meetingKey(o: Occurrence): string {
  return o.recurrenceId ? `${o.uid}#${o.recurrenceId}` : o.uid;
}

function ignored(env: SkillEnv, a: { name: string; email: string | null }): boolean {
  const list = env.cfg.skills.meeting_note.ignore_attendees.map((x) => x.toLowerCase());
  return list.includes(a.name.toLowerCase()) || (a.email !== null && list.includes(a.email.toLowerCase()));
}

/** The occurrences a run is for: an event (on a date, else its latest that ended), a date's, or those just ended. */
function pick(env: SkillEnv, cal: Calendar, req: { date?: string; event?: string }): Occurrence[] {
  const now = env.now();
  if (req.date && !isDate(req.date)) return [];
  if (req.event) {
    const [from, to] = req.date ? dayRange(req.date, env.tz) : [now - 366 * 86_400_000, now + 1];
    const all = cal.between(from, to).filter((o) => o.uid === req.event && o.end <= now);
    return req.date ? all : all.slice(-1);
  }
  if (req.date) {
    const [from, to] = dayRange(req.date, env.tz);
    return cal.between(from, to).filter((o) => o.start >= from && o.end <= now);
  }
  return endedWithin(cal, now, env.cfg.skills.meeting_note.lookback_hours * 3_600_000);
}

/** This meeting's earlier notes: same event UID in their frontmatter, or the same summary in their name. */
function earlierNotes(env: SkillEnv, o: Occurrence, date: string) {
  const r = env.ctx.view.reader;
  const out: Array<{ path: string; title: string; link: string }> = [];
  const suffix = ` ${fileSafe(o.summary)}.md`;
  for (const p of r.documentStats(SOURCE_VAULT).keys()) {
    if (!p.startsWith('Meetings/')) continue;
    const base = path.posix.basename(p);
    if (base.slice(0, 10) >= date) continue;
    const doc = r.document(SOURCE_VAULT, p);
    if (!doc || doc.sensitive) continue;
    if (doc.frontmatter?.['event_uid'] === o.uid || base.endsWith(suffix)) out.push(noteRef(p, doc.title ?? p));
  }
  return out.sort((a, b) => b.path.localeCompare(a.path)).slice(0, 2);
}

async function writeOne(env: SkillEnv, o: Occurrence): Promise<WriteOutcome> {
  const date = localDate(o.start, env.tz);
  const target = `Meetings/${date} ${fileSafe(o.summary)}.md`;
  const key = meetingKey(o);
  // where the writer puts it (Inbox/ at low autonomy): once the note is there, a poll has found nothing new
  if (!existsSync(path.join(env.cfg.vault, ...targetPath(target, autonomyOf(env.cfg, 'meeting_note')).split('/'))))
    env.log('meeting_end_detected', {
      uid: o.uid,
      recurrence_id: o.recurrenceId,
      summary: o.summary,
      ended: new Date(o.end).toISOString(),
      path: target,
    });
  return env.writer.write({
    skill: 'meeting_note',
    template: 'meeting_note',
    path: target,
    key,
    autonomy: autonomyOf(env.cfg, 'meeting_note'),
    draft: async (): Promise<Draft<'meeting_note'>> => {
      const attendees: AttendeeVar[] = o.attendees
        .filter((a) => !ignored(env, a))
        .map((a) => ({ name: a.name, email: a.email, link: personLink(env.cfg.vault, a.name) }));
      const event: MeetingEvent = {
        uid: o.uid,
        recurrence_id: o.recurrenceId,
        summary: o.summary,
        date,
        start: new Date(o.start).toISOString(),
        end: new Date(o.end).toISOString(),
        start_local: localTime(o.start, env.tz),
        end_local: localTime(o.end, env.tz),
        location: o.location,
        description: o.description,
        recurring: o.recurring,
      };
      const earlier = earlierNotes(env, o, date);
      const query = [o.summary, ...attendees.map((a) => a.name)].join(' ');
      const related = await env.ctx.search(query, 6, [...earlier.map((e) => e.path), target]);
      const a = await ask(env.ask, 'meeting_note', { event, attendees, related, previous: await env.ctx.excerpts(earlier, 6_000) }, Answer);
      if (!a.ok) return a;
      const sources = [...earlier, ...related.map((r) => noteRef(r.path, r.title))];
      return {
        ok: true,
        vars: { key, skill: 'meeting_note', generated_at: new Date(env.now()).toISOString(), event, attendees, draft: a.value, sources },
      };
    },
  });
}

export const meetingNote: Skill = {
  name: 'meeting_note',
  llm: true,
  unready: (cfg) => (cfg.calendar?.ics_path || cfg.calendar?.ics_url ? null : 'no_calendar: set calendar.ics_path or calendar.ics_url'),
  async run(env, req) {
    const text = await readCalendar(env.cfg);
    if (!text.ok) return { outcome: 'failed', path: null, commit: null, reason: `${text.reason}: ${text.message}`, results: [] };
    const cal = parseCalendar(text.text, env.tz);
    if (!cal.ok) return { outcome: 'failed', path: null, commit: null, reason: `${cal.reason}: ${cal.message}`, results: [] };
    const due = pick(env, cal.calendar, req);
    const outcomes: WriteOutcome[] = [];
    for (const o of due) outcomes.push(await writeOne(env, o));
    const what = req.event
      ? `event ${req.event}${req.date ? ` on ${req.date}` : ''}`
      : req.date
        ? req.date
        : `the last ${env.cfg.skills.meeting_note.lookback_hours} h`;
    return combine(outcomes, `no_events: no meeting that has ended for ${what}`);
  },
};
