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

/** Every kind each category's generator can make, found by sampling it far past the number of its arms. */
export function allKinds(runs = 20_000): Record<string, Set<string>> {
  const out: Record<string, Set<string>> = {};
  const add = (cat: string, kinds: string[]) => {
    const set = out[cat] ?? new Set<string>();
    for (const k of kinds) set.add(k);
    out[cat] = set;
  };
  const sample = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { seed: 1, numRuns: runs });
  add(
    'paths',
    sample(pathProbe).map(([c, op]) => pathKind(c.how, op, c.cls === 'legal')),
  );
  add(
    'payloads',
    sample(payloadProbes).map((p) => kindOf(p.how)),
  );
  add(
    'frontmatter',
    sample(frontmatterProbes).map((p) => kindOf(p.how)),
  );
  add(
    'markdown',
    sample(markdownProbes).map((p) => kindOf(p.how)),
  );
  add(
    'auth',
    sample(authCases('a-token-of-forty-three-characters-xxxxxxxxx')).map((c) => kindOf(c.how)),
  );
  add(
    'files',
    sample(drop).map((d) => kindOf(d.how)),
  );
  return out;
}
