// commitment_log and weekly_review end to end on the example vault: the commitments the model found in the day's
// notes, each with who (linked), what, by when and its source; a weekly review that loads last week's review for
// carry-over; and at low autonomy the note goes to Inbox/<basename> whatever the skill asked, idempotently.
import t from 'tap';
import { parse } from 'yaml';
import { promptText } from '../helpers/fake-llm.js';
import { skillDaemon } from './helpers/skill-daemon.js';

const LAST_WEEK = `---
type: review
week: "2026-W46"
idempotency_key: "2026-W46"
autowritten_by: memvault
---
# Week 2026-W46

## Carried over

- [ ] Hire a second backend engineer before January
`;

t.test('commitments at low autonomy land in Inbox/; the weekly review carries last week over', async (t) => {
  const s = await skillDaemon(t, {
    skills: { commitment_log: '{ enabled: false, autonomy: low }' },
    files: { 'Reviews/2026-W46.md': LAST_WEEK },
  });

  const c = await s.run('commitment_log', { date: '2026-11-19' });
  t.match(c.body, { outcome: 'written', path: 'Inbox/2026-11-19.md' }, 'low autonomy: Inbox/<basename>');
  t.equal(s.note('Commitments/2026-11-19.md'), null, 'not where the skill asked');
  t.same(
    c.body.results.map((r: { path: string }) => r.path),
    ['Inbox/2026-11-19.md'],
    'and no person stubs from a note waiting in the inbox',
  );
  const note = s.note('Inbox/2026-11-19.md')!;
  t.match(parse(note.split('---\n')[1]!), { type: 'commitments', date: '2026-11-19', count: 2, idempotency_key: '2026-11-19' });
  t.match(
    note,
    /- \[ \] \[\[People\/Tom Okafor\]\]: announce the cutover in-app \(to customers\) — by 2026-11-28 · from \[\[Meetings\/2026-11-19 Atlas migration review\|/,
  );
  t.match(note, /- \[ \] \[\[People\/Lena Fischer\]\]: send the corrected October files — by 2026-11-20 · from \[\[Daily\/2026-11-19\|/);
  const prompt = promptText(s.llm.chats()[0]!);
  t.match(prompt, /Resolve relative dates .* against 2026-11-19/);
  t.match(prompt, /Tom announces it in-app on 28 November/, 'the meeting note was shown');
  t.match(s.trailers('Inbox/2026-11-19.md'), { 'Memvault-Skill': 'commitment_log' });
  const again = await s.run('commitment_log', { date: '2026-11-19' });
  t.match(again.body, { outcome: 'skipped_idempotent', path: 'Inbox/2026-11-19.md' });
  t.equal(s.llm.chats().length, 1, 'the key in the inbox copy counts: no second call');

  const w = await s.run('weekly_review', { date: '2026-11-19' });
  t.match(w.body, { outcome: 'written', path: 'Reviews/2026-W47.md' });
  const review = s.note('Reviews/2026-W47.md')!;
  t.match(parse(review.split('---\n')[1]!), {
    type: 'review',
    week: '2026-W47',
    start: '2026-11-16',
    end: '2026-11-22',
    idempotency_key: '2026-W47',
  });
  t.match(review, /## Carried over from \[\[Reviews\/2026-W46\|2026-W46\]\]/);
  const wp = promptText(s.llm.chats()[1]!);
  t.match(wp, /Write the review of week 2026-W47 \(2026-11-16 to 2026-11-22\)/);
  t.match(wp, /Hire a second backend engineer before January/, 'last week’s review was loaded');
  t.match(wp, /Daily\/2026-11-16\.md/, 'the week’s daily notes');
  t.match(wp, /Meetings\/2026-11-17 Hiring sync\.md/, 'and its meetings');
  t.notMatch(wp, /Daily\/2026-11-23/, 'nothing from the next week');
  const rerun = await s.run('weekly_review', { date: '2026-11-22' });
  t.match(rerun.body, { outcome: 'skipped_idempotent' }, 'another day of the same ISO week: the same note');
  t.equal(s.llm.chats().length, 2);
});
