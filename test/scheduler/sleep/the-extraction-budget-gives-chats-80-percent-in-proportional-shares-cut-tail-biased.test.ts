// The nightly extraction's budget (actors/scheduler/sleep/budget.ts): 80 % to conversations and 20 % to the rest,
// the unused part of one going to the other; shares proportional to length; an item over its share keeps 40 % of
// what is kept from its head and 60 % from its tail, so a conversation's conclusion survives.
import t from 'tap';
import { fitBudget, GAP, shares, splitBudget, truncateTail, type BudgetItem } from '../../../actors/scheduler/sleep/budget.js';

const chars = (c: string, n: number) => c.repeat(n);
const total = (xs: Array<{ text: string }>) => xs.reduce((a, x) => a + x.text.length, 0);

t.test('an item over its share keeps 40 % head and 60 % tail around the gap', async (t) => {
  const text = `${chars('h', 500)}${chars('m', 1000)}${chars('t', 500)}`;
  const cut = truncateTail(text, 105);
  t.equal(cut.length, 105, 'exactly the share');
  const kept = 105 - GAP.length;
  const head = Math.floor(kept * 0.4);
  t.equal(cut.slice(0, head), chars('h', head), 'the head');
  t.equal(cut.slice(head, head + GAP.length), GAP, 'the gap marks what was left out');
  t.equal(cut.slice(head + GAP.length), chars('t', kept - head), 'the tail, the larger part');
  t.ok(kept - head > head, 'tail-biased');
  t.equal(truncateTail('short', 5), 'short', 'whole when it fits');
  t.equal(truncateTail('longer than that', GAP.length), '', 'nothing when not even the gap fits');
  t.match(truncateTail('the question … and the conclusion: we chose Lisbon', 30), /chose Lisbon$/, 'the conclusion survives');
});

t.test('the budget splits 80/20 and a class’s unused part goes to the other', async (t) => {
  t.same(splitBudget(1000, 5000, 5000), { interactive: 800, other: 200 });
  t.same(splitBudget(1000, 100, 5000), { interactive: 100, other: 900 }, 'few chats: the rest gets their part');
  t.same(splitBudget(1000, 5000, 50), { interactive: 950, other: 50 }, 'few tasks: the chats get their part');
  t.same(splitBudget(1000, 10, 20), { interactive: 10, other: 20 }, 'both fit');
});

t.test('shares are proportional to length, and everything is whole when it fits', async (t) => {
  t.same(shares([100, 300], 200), [50, 150]);
  t.same(shares([100, 300], 400), [100, 300]);
  t.same(shares([1, 1, 1], 2), [0, 0, 0], 'floored');
});

t.test('fitBudget keeps order, stays within the budget, and says what it cut', async (t) => {
  const items: BudgetItem[] = [
    { interactive: false, label: 'Task 1', text: chars('a', 4_000) },
    { interactive: true, label: 'Conversation s1', text: `${chars('x', 9_000)}DECIDED: Lisbon` },
    { interactive: true, label: 'Conversation s2', text: chars('y', 3_000) },
    { interactive: false, label: 'Fact log 2026-11-25', text: chars('f', 1_000) },
  ];
  for (const budget of [50_000, 10_000, 5_000, 1_000]) {
    const out = fitBudget(items, budget);
    t.same(
      out.map((o) => o.label),
      items.map((i) => i.label),
      `order kept at ${budget}`,
    );
    t.ok(total(out) <= budget, `at most ${budget} characters (${total(out)})`);
  }
  const whole = fitBudget(items, 50_000);
  t.same(
    whole.map((o) => o.cut),
    [0, 0, 0, 0],
    'nothing cut when all fit',
  );
  const out = fitBudget(items, 10_000);
  const chats = out.filter((o) => o.interactive);
  t.equal(total(chats), 6_002 + 1_997, 'conversations get 80 % of 10,000 (less flooring)');
  const others = out.filter((o) => !o.interactive);
  t.ok(total(others) <= 2_000 && total(others) >= 1_990, 'the rest 20 %');
  const s1 = out[1]!;
  const s2 = out[2]!;
  t.equal(s1.text.length, Math.floor((8_000 * 9_015) / 12_015), 'proportional to its length');
  t.equal(s2.text.length, Math.floor((8_000 * 3_000) / 12_015));
  t.match(s1.text, /DECIDED: Lisbon$/, 'a conversation’s conclusion survives the cut');
  t.equal(s1.cut, 9_015 - (s1.text.length - GAP.length), 'cut counts the characters left out');
  const t1 = out[0]!;
  t.equal(t1.text.length, Math.floor((2_000 * 4_000) / 5_000), 'the task’s share of the 20 %');
});
