// Context assembly: sections always in the order USER.md, facts, CHANNEL.md, dated, recalled; over the budget, items
// go from the end of recalled memories first, then facts, then dated memories; USER.md and CHANNEL.md always stay.
import t from 'tap';
import { assembleContext, type ContextSection, type SectionName } from '../../actors/knowledge/context.js';

const items = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ text: `- ${prefix} ${i}`, source: `${prefix}/${i}` }));
// given out of order on purpose
const SECTIONS: ContextSection[] = [
  { name: 'recalled', title: 'Recalled', items: items('recalled', 3) },
  { name: 'dated', title: 'Dated', items: items('dated', 3) },
  { name: 'channel', title: 'Channel', items: [{ text: 'channel rules', source: 'Channels/x/CHANNEL.md' }] },
  { name: 'facts', title: 'Facts', items: items('fact', 3) },
  { name: 'user', title: 'User', items: [{ text: 'user profile', source: 'USER.md' }] },
];

const counts = (maxChars: number) =>
  Object.fromEntries(assembleContext(SECTIONS, maxChars).sections.map((s) => [s.name, s.items.length])) as Record<SectionName, number>;

t.test('the sections come in their order whatever order they are given in', async (t) => {
  const all = assembleContext(SECTIONS, 100_000);
  t.same(
    all.sections.map((s) => s.name),
    ['user', 'facts', 'channel', 'dated', 'recalled'],
  );
  t.equal(all.truncated, false);
  t.equal(
    all.text,
    '## User\nuser profile\n\n## Facts\n- fact 0\n- fact 1\n- fact 2\n\n## Channel\nchannel rules\n\n## Dated\n- dated 0\n- dated 1\n- dated 2\n\n## Recalled\n- recalled 0\n- recalled 1\n- recalled 2',
  );
  t.equal(all.chars, all.text.length);
});

t.test('over the budget: recalled memories go first, then facts, then dated memories', async (t) => {
  const full = assembleContext(SECTIONS, 100_000).chars;
  const step = '\n- recalled 2'.length;
  t.same(counts(full), { user: 1, facts: 3, channel: 1, dated: 3, recalled: 3 }, 'exactly at the budget: all');
  t.same(counts(full - 1), { user: 1, facts: 3, channel: 1, dated: 3, recalled: 2 }, 'one char over: the last recalled item');
  t.same(counts(full - step - 1), { user: 1, facts: 3, channel: 1, dated: 3, recalled: 1 });
  const noRecalled = full - '\n\n## Recalled\n- recalled 0\n- recalled 1\n- recalled 2'.length;
  t.same(counts(noRecalled), { user: 1, facts: 3, channel: 1, dated: 3, recalled: 0 }, 'recalled gone entirely');
  t.same(counts(noRecalled - 1), { user: 1, facts: 2, channel: 1, dated: 3, recalled: 0 }, 'then facts give way');
  const noFacts = noRecalled - '\n\n## Facts\n- fact 0\n- fact 1\n- fact 2'.length;
  t.same(counts(noFacts), { user: 1, facts: 0, channel: 1, dated: 3, recalled: 0 });
  t.same(counts(noFacts - 1), { user: 1, facts: 0, channel: 1, dated: 2, recalled: 0 }, 'then dated memories');
  const r = assembleContext(SECTIONS, 20);
  t.same(counts(20), { user: 1, facts: 0, channel: 1, dated: 0, recalled: 0 }, 'USER.md and CHANNEL.md always kept');
  t.equal(r.text, '## User\nuser profile\n\n## Channel\nchannel rules');
  t.equal(r.truncated, true);
  t.same(
    r.sections.map((s) => [s.name, s.dropped]),
    [
      ['user', 0],
      ['facts', 3],
      ['channel', 0],
      ['dated', 3],
      ['recalled', 3],
    ],
    'what was dropped is said',
  );
  t.ok(
    assembleContext([{ name: 'user', title: 'User', items: [{ text: 'x'.repeat(500), source: 'USER.md' }] }], 200).chars > 200,
    'even over the budget',
  );
});
