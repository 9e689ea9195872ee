// The nightly extraction's budget, pure: what happened since the last run fits in `budget` characters — interactive
// items (chat sessions) get 80 %, the rest (tasks, the fact log) 20 %, a class's unused part goes to the other; within
// a class each item's share is proportional to its length, and an item over its share keeps 40 % head + 60 % tail
// (a conversation's conclusions come at its end).

export interface BudgetItem {
  /** Chat sessions are interactive; tasks and fact-log days are not. */
  interactive: boolean;
  /** Shown above the text (`Session s1, 09:12–09:40`): not counted against the budget. */
  label: string;
  text: string;
}

export interface Budgeted extends BudgetItem {
  /** Characters of the original text left out (0: whole). */
  cut: number;
}

/** The interactive sources' part of the budget. */
export const INTERACTIVE_SHARE = 0.8;
/** Of a truncated item, the head keeps this part; the tail the rest. */
export const HEAD_SHARE = 0.4;
/** Stands where a truncated item's middle was. */
export const GAP = '\n[…]\n';

/**
 * `text` in at most `max` characters: whole when it fits, else its head (40 % of what is kept), GAP, and its tail
 * (60 %). Nothing at all below GAP's length plus one character.
 */
export function truncateTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = max - GAP.length;
  if (keep <= 0) return '';
  const head = Math.floor(keep * HEAD_SHARE);
  return `${text.slice(0, head)}${GAP}${text.slice(text.length - (keep - head))}`;
}

/** Splits `budget` between two totals: 80/20, a part a class does not need going to the other. */
export function splitBudget(budget: number, interactive: number, other: number): { interactive: number; other: number } {
  let i = Math.floor(budget * INTERACTIVE_SHARE);
  let o = budget - i;
  if (interactive < i) {
    o += i - interactive;
    i = interactive;
  } else if (other < o) {
    i += o - other;
    o = other;
  }
  return { interactive: Math.min(i, interactive), other: Math.min(o, other) };
}

/** Each item's share of `budget`, proportional to its length (floored): the whole item when all fit. */
export function shares(lengths: readonly number[], budget: number): number[] {
  const total = lengths.reduce((a, b) => a + b, 0);
  if (total <= budget) return [...lengths];
  return lengths.map((n) => Math.floor((budget * n) / total));
}

/** The items in their order, each cut to its share; the texts together are at most `budget` characters. */
export function fitBudget(items: readonly BudgetItem[], budget: number): Budgeted[] {
  const inter = items.filter((x) => x.interactive);
  const other = items.filter((x) => !x.interactive);
  const len = (xs: readonly BudgetItem[]) => xs.reduce((a, x) => a + x.text.length, 0);
  const split = splitBudget(Math.max(0, budget), len(inter), len(other));
  const cut = new Map<BudgetItem, string>();
  for (const [xs, b] of [
    [inter, split.interactive],
    [other, split.other],
  ] as const) {
    const s = shares(
      xs.map((x) => x.text.length),
      b,
    );
    xs.forEach((x, i) => cut.set(x, truncateTail(x.text, s[i]!)));
  }
  return items.map((x) => {
    const text = cut.get(x)!;
    return { ...x, text, cut: text === x.text ? 0 : x.text.length - (text.length - (text.includes(GAP) ? GAP.length : 0)) };
  });
}
