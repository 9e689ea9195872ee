// Category 5 of the hostile run: files a person (or another program) drops straight into the watched vault —
// thousands of tiny notes, non-UTF-8 and UTF-16, files over chunker.max_file_bytes, symlinks out of the vault, to
// folders out of it and in loops, odd names, a note replaced by a folder and back. Each must end indexed or failed
// with its stable reason (or, for what is not a note, absent) — never a crash, never outside text in the index.
import fc from 'fast-check';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/load.js';
import type { Daemon } from '../../main/daemon.js';
import { fileStates, openDirect } from '../../bin/direct.js';
import { SOURCE_VAULT } from '../../messages/common.js';
import { vaultPath } from '../../messages/common.js';
import { record, show, triedKind, type Tally } from './hostile-client.js';
import { sha256Hex } from '../../messages/hash.js';

export const MAX_FILE_BYTES = 300_000; // chunker.max_file_bytes for the run

/** `indexed`, `failed:<reason>`, or `absent` (not a note: never indexed, no status needed). */
type Expect = 'indexed' | `failed:${string}` | 'absent';
export interface Drop {
  name: string; // the file name, under Drops/<batch>/
  how: string;
  make(abs: string, ctx: { outside: string }): void;
  expect: Expect;
}

const text = fc.stringMatching(/^[a-z #\n-]{0,5}$/);
const bytes = (b: Buffer | string) => (abs: string) => writeFileSync(abs, b);

const ODD_NAMES = [
  'cafe\u0301 nfd',
  'new\nline',
  'tab\there',
  'bidi\u202egnp',
  'emoji 😀',
  'café',
  ' leading space',
  'colon:x',
  'back\\slash',
  '#hash',
  '%2e%2e',
  '日本語',
  'zero\u200bwidth',
  'Ω≈ç√',
];

export const drop: fc.Arbitrary<Omit<Drop, 'name'> & { stem: string }> = fc.oneof(
  { weight: 30, arbitrary: text.map((s) => ({ stem: 'tiny', how: `tiny text ${show(s)}`, make: bytes(s), expect: 'indexed' as Expect })) },
  {
    weight: 4,
    arbitrary: fc.tuple(text, fc.nat({ max: 5 })).map(([s, at]) => ({
      stem: 'nul',
      how: 'tiny with NUL',
      make: bytes(Buffer.concat([Buffer.from(s.slice(0, at)), Buffer.from([0]), Buffer.from(s.slice(at))])),
      expect: 'failed:binary' as Expect,
    })),
  },
  {
    weight: 4,
    arbitrary: fc.tuple(text, fc.constantFrom(0xc3, 0xff, 0x80, 0xed)).map(([s, b]) => ({
      stem: 'bad',
      how: `tiny with byte 0x${b.toString(16)}`,
      make: bytes(Buffer.concat([Buffer.from(`x${s}`), Buffer.from([b])])),
      expect: 'failed:not_utf8' as Expect,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.stringMatching(/^[a-z ]{10,200}$/).map((s) => ({
      stem: 'latin1',
      how: 'Latin-1 text',
      make: bytes(Buffer.from(`# Caf\u00e9 ${s}\n`, 'latin1')),
      expect: 'failed:not_utf8' as Expect,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.stringMatching(/^[a-z ]{10,200}$/).map((s) => ({
      stem: 'utf16',
      how: 'UTF-16LE with BOM',
      make: bytes(Buffer.from(`\ufeff# ${s}\n`, 'utf16le')),
      expect: 'failed:not_utf8' as Expect,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 200_000 }).map((over) => ({
      stem: 'huge',
      how: `${MAX_FILE_BYTES + over} bytes`,
      make: bytes('word '.repeat(Math.ceil((MAX_FILE_BYTES + over) / 5))),
      expect: 'failed:too_large' as Expect,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('rel', 'abs', 'passwd', 'deep').map((k) => ({
      stem: 'link-out',
      how: `symlink to an outside file (${k})`,
      make: (abs: string, c: { outside: string }) =>
        symlinkSync(
          k === 'rel'
            ? '../../../outside/secret.md'
            : k === 'abs'
              ? path.join(c.outside, 'secret.md')
              : k === 'passwd'
                ? '/etc/passwd'
                : '../../../outside/secret-dir/deep.md',
          abs,
        ),
      expect: 'failed:outside_vault' as Expect,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      stem: 'dirlink-out',
      how: 'symlink named .md to an outside folder',
      make: (abs: string) => symlinkSync('../../../outside', abs),
      expect: 'failed:outside_vault' as Expect,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      stem: 'dirlink',
      how: 'symlinked folder to outside',
      make: (abs: string) => symlinkSync('../../../outside', abs.replace(/\.md$/, '')),
      expect: 'absent' as Expect,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      stem: 'loop',
      how: 'symlink to itself',
      make: (abs: string) => symlinkSync(path.basename(abs), abs),
      expect: 'failed:symlink_loop' as Expect,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      stem: 'dangling',
      how: 'dangling symlink',
      make: (abs: string) => symlinkSync('nowhere-at-all.md', abs),
      expect: 'absent' as Expect,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      stem: 'inlink',
      how: 'symlink to a note inside the vault',
      make: (abs: string) => symlinkSync('../../Inbox/seed.md', abs),
      expect: 'indexed' as Expect,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...ODD_NAMES).map((odd) => ({
      stem: odd,
      how: `odd name ${show(odd)}`,
      make: bytes(`# Odd\n\nname ${odd}\n`),
      // paths are keyed NFC with '/' separators: a name that cannot be keyed as it is must be reported, not dropped
      expect: (odd.includes('\\') || odd !== odd.normalize('NFC') ? 'failed:unsupported_name' : 'indexed') as Expect,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      stem: 'bomb',
      how: 'frontmatter alias bomb',
      make: bytes(
        `---\na: &a ["l","l","l","l","l","l","l","l","l"]\n${Array.from(
          { length: 8 },
          (_, i) =>
            `b${i}: &b${i} [${Array(9)
              .fill(i ? `*b${i - 1}` : '*a')
              .join(',')}]`,
        ).join('\n')}\n---\n# Bomb\n\nbody\n`,
      ),
      expect: 'indexed' as Expect,
    }),
  },
);

export interface FilesCtx {
  daemon: Daemon;
  cfg: Config;
  outside: string;
  canary: string;
  tally: Tally;
}

/** Waits until every path in `want` has had a `watcher.done` (or `ms` pass); returns the paths still missing. */
function awaitDone(daemon: Daemon, want: Set<string>, ms: number): { started: Promise<string[]> } {
  const left = new Set(want);
  let finish!: (missing: string[]) => void;
  const started = new Promise<string[]>((r) => (finish = r));
  const off = daemon.onRouted((m) => {
    if (m.type === 'watcher.done' && left.delete(m.path) && left.size === 0) done();
  });
  const timer = setTimeout(() => done(), ms);
  function done() {
    off();
    clearTimeout(timer);
    finish([...left]);
  }
  if (left.size === 0) done();
  return { started };
}

/** Drops `count` hostile files into Drops/<batch>/, waits for the watcher, and judges every one. */
export async function runDrops(ctx: FilesCtx, count: number, seed: number, batch: number): Promise<void> {
  const dir = path.join(ctx.cfg.vault, 'Drops', `b${batch}`);
  mkdirSync(dir, { recursive: true });
  const drops = fc.sample(drop, { seed, numRuns: Math.max(0, count - 2) }).map((d, i) => ({ ...d, name: `${d.stem} ${i}.md` }));
  const rel = (d: { name: string }) => vaultPath(`Drops/b${batch}/${d.name}`) as string;
  const waitFor = new Set(drops.filter((d) => d.expect !== 'absent').map(rel));
  const waiting = awaitDone(ctx.daemon, waitFor, 180_000);
  for (const d of drops) d.make(path.join(dir, d.name), { outside: ctx.outside });
  const missing = new Set(await waiting.started);
  const dbg = (m: string) => process.env['HOSTILE_DEBUG'] && process.stderr.write(`hostile files b${batch}: ${m}\n`);
  dbg(`drops done, missing ${JSON.stringify([...missing])}`);
  // a note replaced by a folder (holding a note) and back: the last file is what must be indexed
  const flip = `Drops/b${batch}/flip.md`;
  const flipAbs = path.join(ctx.cfg.vault, flip);
  const inner = `${flip}/inner.md`;
  let wait = ctx.daemon.nextDone(flip, 'indexed');
  writeFileSync(flipAbs, '# Flip\n\nfirst as a file\n');
  await wait;
  dbg('flip 1');
  wait = ctx.daemon.nextDone(inner, 'indexed');
  rmSync(flipAbs);
  mkdirSync(flipAbs);
  writeFileSync(path.join(flipAbs, 'inner.md'), '# Inner\n\na note inside the folder\n');
  await wait;
  dbg('flip 2');
  const final = Buffer.from('# Flip\n\nfile again\n');
  wait = ctx.daemon.nextDone(flip, 'indexed');
  rmSync(flipAbs, { recursive: true });
  writeFileSync(flipAbs, final);
  await wait;
  dbg('flip 3');
  await ctx.daemon.whenCaughtUp();
  dbg('caught up');

  const view = openDirect(ctx.cfg);
  if (!view) throw new Error('no index to check the dropped files against');
  try {
    const states = new Map((await fileStates(ctx.cfg, view)).map((f) => [f.path, f]));
    const statuses = new Map(view.reader.fileStatuses().map((s) => [s.path, s]));
    for (const d of drops) {
      const p = rel(d);
      const input = `${d.how} at ${show(p)}`;
      triedKind(ctx.tally, 'files', d.how);
      const st = states.get(p) ?? statuses.get(p);
      const doc = view.reader.document(SOURCE_VAULT, p);
      const got = st === undefined ? (doc ? 'indexed' : 'absent') : st.state === 'failed' ? `failed:${st.reason}` : st.state;
      if (d.expect === 'absent' ? doc !== null && doc !== undefined : got !== d.expect) {
        record(ctx.tally, 'files', 'wrongReason', `${input} → ${got}${missing.has(p) ? ' (never finished)' : ''}, expected ${d.expect}`);
      } else record(ctx.tally, 'files', 'ok');
    }
    const flipDoc = view.reader.document(SOURCE_VAULT, flip);
    const hash = sha256Hex(final);
    if (flipDoc?.contentHash !== hash)
      record(
        ctx.tally,
        'files',
        'wrongReason',
        `note → folder → note at ${flip}: the index holds ${flipDoc?.contentHash ?? 'nothing'}, not the last file`,
      );
    else record(ctx.tally, 'files', 'ok');
    if (view.reader.document(SOURCE_VAULT, inner))
      record(ctx.tally, 'files', 'wrongReason', `${inner} is still indexed after its folder became a file again`);
    else record(ctx.tally, 'files', 'ok');
  } finally {
    view.close();
  }
}
