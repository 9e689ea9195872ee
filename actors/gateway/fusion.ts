// Fusion of ranked lists (chunks or notes) into one: reciprocal-rank or normalised-score, each list weighted.
import type { Ranked } from './group-by-note.js';
import type { Fusion } from './ranking.js';

export interface WeightedList {
  items: Ranked[];
  weight: number;
}

/**
 * One list from several, best first; ties by id so equal scores always come out in the same order. Scores are
 * 0..1: 1 means first (rrf) or top-scoring (score) in every list.
 */
export function fuseLists(lists: WeightedList[], fusion: Fusion): Ranked[] {
  const used = lists.filter((l) => l.weight > 0 && l.items.length > 0);
  const total = used.reduce((s, l) => s + l.weight, 0);
  if (total === 0) return [];
  const scores = new Map<number, number>();
  const add = (id: number, x: number): void => {
    scores.set(id, (scores.get(id) ?? 0) + x);
  };
  if (fusion.kind === 'rrf') {
    for (const l of used) l.items.forEach((r, i) => add(r.id, l.weight / (fusion.k + i + 1)));
    const max = total / (fusion.k + 1);
    return sorted(scores, max);
  }
  for (const l of used) {
    let min = Infinity;
    let max = -Infinity;
    for (const r of l.items) {
      min = Math.min(min, r.score);
      max = Math.max(max, r.score);
    }
    // Min-max over the candidates spreads scores that crowd a narrow band (cosines, bm25 of OR queries), but would
    // put a list's last candidate level with one it never found: the floor sits one mean gap below the last.
    const lo = min - (max - min) / Math.max(1, l.items.length - 1);
    // A list whose candidates all score alike says nothing about their order: each gets the full weight.
    for (const r of l.items) add(r.id, l.weight * (max > min ? (r.score - lo) / (max - lo) : 1));
  }
  return sorted(scores, total);
}

function sorted(scores: Map<number, number>, max: number): Ranked[] {
  return [...scores].map(([id, s]) => ({ id, score: s / max })).sort((x, y) => y.score - x.score || x.id - y.id);
}
