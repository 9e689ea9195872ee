// Fusion of ranked lists: reciprocal-rank (the baseline) and normalised-score (the default), each list weighted.
import t from 'tap';
import { fuseLists } from '../../actors/gateway/fusion.js';

const list = (...scores: Array<[number, number]>) => scores.map(([id, score]) => ({ id, score }));

t.test('reciprocal-rank fusion adds weight / (k + rank) and scores first-in-every-list as 1', async (t) => {
  const bm25 = list([1, 9], [2, 5], [3, 1]);
  const vector = list([2, 0.9], [1, 0.8]);
  const fused = fuseLists(
    [
      { items: bm25, weight: 1 },
      { items: vector, weight: 1 },
    ],
    { kind: 'rrf', k: 60, vector: 1 },
  );
  t.same(
    fused.map((r) => r.id),
    [1, 2, 3],
    'ties (1 and 2 are first and second in one list each) go to the lower id',
  );
  t.ok(Math.abs(fused[0]!.score - (1 / 61 + 1 / 62) / (2 / 61)) < 1e-12, 'the formula memvault used before issue 18');
  const alone = fuseLists([{ items: list([7, 3]), weight: 1 }], { kind: 'rrf', k: 60, vector: 1 });
  t.equal(alone[0]!.score, 1);
});

t.test(
  'score fusion: first in both lists scores 1, the vector list weighs half, and a list that never found a note gives it nothing',
  async (t) => {
    const fusion = { kind: 'score', vector: 0.5 } as const;
    const both = fuseLists(
      [
        { items: list([1, 0.9], [2, 0.6], [3, 0.5]), weight: 1 },
        { items: list([1, 0.7], [4, 0.65], [3, 0.4]), weight: 0.5 },
      ],
      fusion,
    );
    t.equal(both[0]!.id, 1);
    t.equal(both[0]!.score, 1, 'top of both lists');
    const score = Object.fromEntries(both.map((r) => [r.id, r.score]));
    // bm25 floor: 0.5 - (0.9 - 0.5) / 2 = 0.3; vector floor: 0.4 - 0.3 / 2 = 0.25
    t.ok(Math.abs(score[2]! - (0.6 - 0.3) / 0.6 / 1.5) < 1e-12, 'a bm25-only note gets its share of the bm25 weight alone');
    t.ok(Math.abs(score[4]! - (0.5 * ((0.65 - 0.25) / 0.45)) / 1.5) < 1e-12, 'a vector-only note gets its share of the half weight');
    t.ok(score[3]! > 0, "each list's last candidate still counts for more than a note the list never found");
    t.ok(
      both.every((r, i) => i === 0 || r.score <= both[i - 1]!.score),
      'best first',
    );
  },
);

t.test(
  'score fusion: a list whose candidates all score alike gives each the full weight; empty and zero-weight lists count for nothing',
  async (t) => {
    const fused = fuseLists(
      [
        { items: list([5, 0.4], [6, 0.4]), weight: 1 },
        { items: [], weight: 0.5 },
        { items: list([6, 1]), weight: 0 },
      ],
      { kind: 'score', vector: 0.5 },
    );
    t.same(fused, [
      { id: 5, score: 1 },
      { id: 6, score: 1 },
    ]);
    t.same(fuseLists([], { kind: 'score', vector: 0.5 }), []);
  },
);
