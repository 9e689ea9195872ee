// The kinds of hostile input each category's generator makes (its arms, with sizes, quoted samples and numbers
// folded), so a run can show it tried every kind: the CI run is a smaller sample of the same generators than
// `make chaos`, and this is what keeps it from being a narrower one.
import fc from 'fast-check';
import { cases as authCases } from './hostile-auth.js';
import { kindOf, pathKind } from './hostile-client.js';
import { drop } from './hostile-files.js';
import { frontmatterProbes, markdownProbes } from './hostile-notes.js';
import { payloadProbes } from './hostile-payloads.js';
import { probe as pathProbe } from './hostile-run-paths.js';

/**
 * Every kind each category's generator can make, found by sampling it far past the number of its arms (2,000 runs
 * found all 183; 20,000 found no more but took 41 s and 1.8 GB, the payloads being up to 1 MB each). Sampled in small
 * batches so that only the kinds are kept.
 */
export function allKinds(runs = 3_000): Record<string, Set<string>> {
  const out: Record<string, Set<string>> = {};
  const BATCH = 250;
  const add = <T>(cat: string, arb: fc.Arbitrary<T>, kind: (v: T) => string) => {
    const set = out[cat] ?? new Set<string>();
    for (let seed = 1; (seed - 1) * BATCH < runs; seed++) {
      for (const v of fc.sample(arb, { seed, numRuns: BATCH })) set.add(kind(v));
    }
    out[cat] = set;
  };
  add('paths', pathProbe, ([c, op]) => pathKind(c.how, op, c.cls === 'legal'));
  add('payloads', payloadProbes, (p) => kindOf(p.how));
  add('frontmatter', frontmatterProbes, (p) => kindOf(p.how));
  add('markdown', markdownProbes, (p) => kindOf(p.how));
  add('auth', authCases('a-token-of-forty-three-characters-xxxxxxxxx'), (c) => kindOf(c.how));
  add('files', drop, (d) => kindOf(d.how));
  return out;
}
