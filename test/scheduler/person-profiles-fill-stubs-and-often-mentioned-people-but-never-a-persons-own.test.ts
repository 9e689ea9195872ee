// person_profile end to end: People notes linked from at least mention_threshold notes changed within lookback_days
// (counted from the links the index stores) and stubs with little body get a profile; the overwrite guard writes
// only a note that is empty or carries autowritten_by: memvault, so a person's own profile (Maya Chen's, linked from
// many notes) is never touched and costs no call; max_per_run bounds the calls; keyed name@ISO week.
import { readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { promptText } from '../helpers/fake-llm.js';
import { skillDaemon } from './helpers/skill-daemon.js';

const ours = (name: string, body: string) =>
  `---\ntype: person\nname: ${name}\nstub: false\nidempotency_key: "${name}@2020-W01"\nautowritten_by: memvault\n---\n# ${name}\n\n${body}\n`;
const LONG = 'Worked with us on the early billing prototypes and later on the export format. '.repeat(4);

t.test('profiles for stubs and often-mentioned people, never a person’s own page', async (t) => {
  const s = await skillDaemon(t, {
    skills: { person_profile: '{ enabled: false, mention_threshold: 3, lookback_days: 30, min_body_chars: 200, max_per_run: 1 }' },
    files: {
      'People/Sofia Marques.md':
        '---\ntype: person\nname: Sofia Marques\nstub: true\nidempotency_key: "stub:Sofia Marques"\nautowritten_by: memvault\n---\n# Sofia Marques\n\nFirst seen in a meeting.\n',
      'People/Ada Byron.md': ours('Ada Byron', LONG),
      'People/Grace Hopper.md': ours('Grace Hopper', LONG),
      'Inbox/a.md': '# a\n\nAsked [[Ada Byron]] and [[Grace Hopper]] about the export.\n',
      'Inbox/b.md': '# b\n\n[[Ada Byron]] reviewed it; so did [[Grace Hopper]].\n',
      'Inbox/c.md': '# c\n\n[[Ada Byron]] will send the figures. [[Sofia Marques]] joins the Atlas review.\n',
      'Inbox/old.md': '# old\n\n[[Grace Hopper]] said this in spring.\n',
    },
    // the fourth mention of Grace is from a note last changed 90 days ago: outside lookback_days
    prepare: (dir) =>
      utimesSync(path.join(dir, 'Inbox/old.md'), new Date(Date.now() - 90 * 86_400_000), new Date(Date.now() - 90 * 86_400_000)),
  });
  const maya = readFileSync(path.join(s.v.dir, 'People/Maya Chen.md'));

  const first = await s.run('person_profile');
  t.equal(first.status, 200, JSON.stringify(first.body));
  const byPath = (r: { body: { results: Array<{ path: string; outcome: string; reason: string | null }> } }) =>
    Object.fromEntries(r.body.results.map((x) => [x.path, x]));
  const r1 = byPath(first);
  t.match(r1['People/Maya Chen.md'], { outcome: 'skipped', reason: /^not_ours/ }, 'Maya is linked from many notes, but her page is hers');
  t.equal(r1['People/Grace Hopper.md'], undefined, 'Grace: two recent mentions, one too old — under the threshold, and not a stub');
  t.equal(s.llm.chats().length, 1, 'max_per_run 1: one profile drafted');
  t.match(r1['People/Ada Byron.md'], { outcome: 'written' }, 'the most mentioned first');
  t.equal(r1['People/Sofia Marques.md'], undefined, 'Sofia waits for the next run');

  const ada = s.note('People/Ada Byron.md')!;
  const fm = parse(ada.split('---\n')[1]!);
  t.match(fm, { type: 'person', name: 'Ada Byron', stub: false, autowritten_by: 'memvault', idempotency_key: /^Ada Byron@\d{4}-W\d{2}$/ });
  t.match(s.trailers('People/Ada Byron.md'), { 'Memvault-Skill': 'person_profile' });
  const prompt = promptText(s.llm.chats()[0]!);
  t.match(prompt, /Write a short profile of Ada Byron/);
  t.match(prompt, /Inbox\/c\.md/, 'the notes that mention her were read');
  t.match(prompt, /Worked with us on the early billing prototypes/, 'with her page as it is');

  const second = await s.run('person_profile');
  const r2 = byPath(second);
  t.match(r2['People/Ada Byron.md'], { outcome: 'skipped_idempotent' }, 'same week: no second profile');
  t.match(r2['People/Sofia Marques.md'], { outcome: 'written' }, 'the stub is filled');
  t.equal(s.llm.chats().length, 2);
  t.match(parse(s.note('People/Sofia Marques.md')!.split('---\n')[1]!), { stub: false, idempotency_key: /^Sofia Marques@/ });

  const third = await s.run('person_profile');
  t.notOk(
    third.body.results.some((x: { outcome: string }) => x.outcome === 'written'),
    'nothing left to write this week',
  );
  t.equal(s.llm.chats().length, 2, 'and no call');
  t.same(readFileSync(path.join(s.v.dir, 'People/Maya Chen.md')), maya, 'Maya’s own page is byte for byte as she left it');
});
