// meeting_note end to end on the example vault and its calendar (Calendar/team.ics: a weekly meeting in
// Europe/Berlin with an EXDATE and a moved occurrence, a one-off event): a note per occurrence keyed by UID +
// recurrence id, attendees linked ([[People/Name]] when that note exists, else [[Name]]), rooms and ignored people
// left out, a person stub for each bare name; a second run costs no LLM call; a meeting a person already wrote up is
// left alone.
import t from 'tap';
import { parse } from 'yaml';
import { git } from '../helpers/daemon.js';
import { promptText } from '../helpers/fake-llm.js';
import { skillDaemon } from './helpers/skill-daemon.js';

const UID = 'atlas-review-7f3c2a@ledgerline.example';

t.test('a meeting note per occurrence, attendees linked, stubs for new people, idempotent', async (t) => {
  const s = await skillDaemon(t, {
    skills: { meeting_note: '{ enabled: false, ignore_attendees: [priya@ledgerline.example] }' },
    extra: 'calendar:\n  ics_path: ./vault/Calendar/team.ics\n', // relative to the config file's folder
  });
  const r = await s.run('meeting_note', { event: UID, date: '2026-11-05' });
  t.equal(r.status, 200, JSON.stringify(r.body));
  const path5 = 'Meetings/2026-11-05 Atlas migration review.md';
  t.match(r.body, { outcome: 'written', path: path5, commit: /^[0-9a-f]{40}$/ });
  t.same(
    r.body.results.map((x: { outcome: string; path: string }) => `${x.outcome} ${x.path}`),
    [`written ${path5}`, 'written People/Sofia Marques.md'],
    'the note, then a stub for the one attendee without a page',
  );

  const note = s.note(path5)!;
  const fm = parse(note.split('---\n')[1]!);
  t.equal(fm.idempotency_key, `${UID}#2026-11-05T10:00:00.000Z`, 'UID + recurrence id');
  t.equal(fm.start, '2026-11-05T10:00:00.000Z', '11:00 in Berlin (CET) is 10:00 UTC');
  t.same(
    fm.attendees,
    ['[[People/Maya Chen]]', '[[People/Tom Okafor]]', '[[People/Lena Fischer]]', '[[Sofia Marques]]'],
    'no room, no ignored organiser',
  );
  t.match(note, /11:00–11:45 · Room Kepler \/ video · recurring/);
  t.match(note, /Confirm the fallback date with \[\[Sofia Marques\]\]/, 'the draft is in the note');
  t.match(s.trailers(path5), { 'Memvault-Skill': 'meeting_note', 'Memvault-Agent': 'memvault-scheduler' });

  const [call] = s.llm.chats();
  const prompt = promptText(call!);
  t.match(prompt, /Meeting: Atlas migration review/);
  t.match(prompt, /Attendees: Maya Chen, Tom Okafor, Lena Fischer, Sofia Marques/);
  t.match(prompt, /Invitation text: Weekly review of the Atlas migration/);
  t.match(prompt, /Projects\/Atlas migration\.md/, 'related notes found by search');

  const stub = parse(s.note('People/Sofia Marques.md')!.split('---\n')[1]!);
  t.match(stub, { type: 'person', name: 'Sofia Marques', stub: true, autowritten_by: 'memvault' });
  t.match(s.trailers('People/Sofia Marques.md'), { 'Memvault-Skill': 'person_stub' });
  t.equal(s.note('People/Priya Raman.md'), null, 'an ignored attendee gets no stub');

  const commits = git(s.v.dir, 'rev-list', '--count', 'HEAD').trim();
  const again = await s.run('meeting_note', { event: UID, date: '2026-11-05' });
  t.match(again.body, { outcome: 'skipped_idempotent', path: path5 });
  t.equal(s.llm.chats().length, 1, 'no LLM call the second time');
  t.equal(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim(), commits, 'no commit either');

  const theirs = await s.run('meeting_note', { date: '2026-11-19' });
  t.match(
    theirs.body,
    { outcome: 'skipped', path: 'Meetings/2026-11-19 Atlas migration review.md', reason: /^not_ours/ },
    'a person’s own meeting note is left alone',
  );
  t.equal(s.llm.chats().length, 1, 'and costs no call');

  const none = await s.run('meeting_note', { date: '2026-11-12' });
  t.match(none.body, { outcome: 'skipped', reason: /^no_events/ }, 'the EXDATE took 12 November out');

  const retro = await s.run('meeting_note', { date: '2026-11-20' });
  t.match(retro.body, { outcome: 'written', path: 'Meetings/2026-11-20 Billing export retro.md' });
  t.equal(
    parse(s.note('Meetings/2026-11-20 Billing export retro.md')!.split('---\n')[1]!).idempotency_key,
    'billing-export-retro-41d9@ledgerline.example',
    'a one-off event: its UID',
  );
});
