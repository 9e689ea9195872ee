// Property: a path built from a hostile alphabet is either refused with a path reason, or written to a real .md
// file inside the vault — and nothing outside the vault is ever created or changed.
import t from 'tap';
import fc from 'fast-check';
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { isInside, resolveVaultPath } from '../../../actors/git-writer/vault/paths.js';
import { AGENT, ALLOWLIST, SENTINEL_TEXT, sandbox, snapshot, writerFor } from './helpers.js';

const SEED = 1_732_245_601; // fixed so a failure replays; fast-check prints the path to shrink it further
const RUNS = 2_500;
const PATH_REASONS = ['path_escape', 'not_markdown', 'outside_allowlist'];

const hostile = fc.constantFrom(
  '.',
  '..',
  '/',
  '//',
  '\\',
  '%',
  '%2e',
  '%2F',
  '%25',
  '\u0000',
  '\n',
  '\u2215',
  '\u2044',
  '\uff0f',
  '\uff0e',
  '\u2024',
  '\ufe52',
  '\u29f8',
  '\uff3c',
  '\u2025',
  '\u2100',
  '\u200b',
  '\u202e',
  ' ',
  ':',
  'C:',
  '~1',
  '.git',
  'out',
  'up',
);
const benign = fc.constantFrom(
  'a',
  'b',
  'x',
  '2',
  'e',
  'f',
  '5',
  'c',
  '0',
  '-',
  'e\u0301',
  '\u00e9',
  'Inbox',
  'inbox',
  'Meetings',
  'Secrets',
  'md',
  '.md',
  '.MD',
  'note',
  '/',
);
const pieces = fc.oneof({ arbitrary: hostile, weight: 1 }, { arbitrary: benign, weight: 4 });
const raw = fc.array(pieces, { maxLength: 10 }).map((p) => p.join(''));
// Half the inputs start like a real note path, so plenty get past the first rules and reach the disk.
const shaped = fc
  .tuple(
    fc.constantFrom('Inbox/', 'Inbox/', 'Meetings/', 'Inbox/sub/', 'Inbox/out/', 'Inbox/up/', 'Secrets/', 'inbox/', ''),
    raw,
    fc.constantFrom('.md', '.md', '.md', '', '.MD', '/'),
  )
  .map((p) => p.join(''));

t.test(`${RUNS} hostile paths: refused with a path reason, or written inside the vault as a .md note`, async (t) => {
  const s = sandbox(t);
  symlinkSync(s.outside, path.join(s.vault, 'Inbox', 'out')); // random paths through these must never get out
  symlinkSync('..', path.join(s.vault, 'Inbox', 'up'));
  mkdirSync(path.join(s.vault, 'Inbox', 'sub'));
  const writer = writerFor(s);
  const outsideBefore = snapshot(s.outside);
  const topBefore = readdirSync(s.top).sort();
  let written = 0;
  let n = 0;
  const outcomes: Record<string, number> = {};
  await fc.assert(
    fc.asyncProperty(fc.oneof({ arbitrary: raw, weight: 1 }, { arbitrary: shaped, weight: 3 }), async (input) => {
      const content = `note ${n++}\n`;
      const checked = resolveVaultPath(s.vault, input, { allowlist: ALLOWLIST });
      const res = await writer.apply({ op: 'write', path: input, content }, AGENT);
      const outcome = res.ok ? 'written' : res.reason;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      if (!checked.ok) {
        if (!PATH_REASONS.includes(checked.reason) || res.ok || res.reason !== checked.reason) return false;
      } else {
        if (!res.ok || !isInside(s.realVault, checked.abs) || checked.abs === s.realVault || !/\.md$/i.test(checked.abs)) return false;
        if (realpathSync(checked.abs) !== checked.abs) return false; // the file is where we said, through no link
        if (readFileSync(checked.abs, 'utf8') !== content) return false;
        written++;
      }
      // Every run, refused or not: the folder beside the vault and the sentinel are as they were.
      return readdirSync(s.top).sort().join() === topBefore.join() && readFileSync(s.sentinel, 'utf8') === SENTINEL_TEXT;
    }),
    { seed: SEED, numRuns: RUNS },
  );
  t.ok(
    written >= 150,
    `${written} of ${RUNS} inputs were accepted and written, so the property was not vacuous (${JSON.stringify(outcomes)})`,
  );
  t.ok(
    PATH_REASONS.every((r) => (outcomes[r] ?? 0) >= 50),
    'each path reason was exercised',
  );
  t.same(snapshot(s.outside), outsideBefore, 'nothing outside the vault was created or changed');
  t.same(readdirSync(s.top).sort(), ['outside', 'vault']);
  const hidden = Object.keys(snapshot(s.vault)).filter((p) => p.split('/').some((seg) => seg.startsWith('.')));
  t.same(hidden.sort(), ['.git', '.git/HEAD', '.obsidian'], 'no hidden file or folder was created');
});
