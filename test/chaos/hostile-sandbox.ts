// The hostile run's temp folder: a vault beside "outside" canary secrets, symlinks from the vault to them (and to
// /etc/passwd), and the escape checks — canaries unchanged, nothing new outside the vault, reserved files untouched.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeVault, type TestVault } from '../helpers/daemon.js';

/** Symlinks planted in the vault at start: vault-relative path → what it points at. */
export const PLANTED = {
  fileOut: 'Inbox/leak.md', // → ../../outside/secret.md
  rootFileOut: 'leak-at-root.md', // → ../outside/secret.md
  absFileOut: 'Projects/abs-leak.md', // → <abs>/outside/secret-dir/deep.md
  dirOut: 'Inbox/outdir', // → ../../outside (a folder)
  passwd: 'Inbox/passwd.md', // → /etc/passwd
  folderNote: 'Inbox/folder.md', // a real folder named like a note
  seed: 'Inbox/seed.md', // an ordinary note, the source of moves onto hostile targets
} as const;

/** Files the agent path must never change, with decoys standing in for what a real vault holds there. */
const RESERVED = [
  '.git/config',
  '.git/HEAD',
  '.git/description',
  '.git/info/exclude',
  '.obsidian/app.json',
  '.memvault/index.sqlite',
  '.trash/old.md',
  'Templates/daily.md',
];

function sha(p: string): string {
  return createHash('sha256').update(readFileSync(p)).digest('hex');
}

export interface Sandbox {
  vault: TestVault;
  root: string;
  outside: string;
  /** A word that appears only in the outside canaries: no search or read may ever return it. */
  canary: string;
  /** Problems found by the escape checks (empty when nothing escaped). */
  check(): string[];
  /** Call once the daemon has made its git repository, so `.git` files join the reserved set. */
  sealReserved(): void;
}

/** Every entry under `dir` except `skip` (top-level names), as `rel → type:size:hash|target`. */
function listing(dir: string, skip: ReadonlySet<string>, rel = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (rel === '' && skip.has(e.name)) continue;
    const abs = path.join(dir, r);
    if (e.isSymbolicLink()) out.set(r, `link:${readlinkSync(abs)}`);
    else if (e.isDirectory()) {
      out.set(r, 'dir');
      for (const [k, v] of listing(dir, skip, r)) out.set(k, v);
    } else out.set(r, `file:${lstatSync(abs).size}:${sha(abs)}`);
  }
  return out;
}

function diff(before: Map<string, string>, after: Map<string, string>, where: string): string[] {
  const out: string[] = [];
  for (const [k, v] of after)
    if (before.get(k) !== v) out.push(`${where}: ${k} ${before.has(k) ? 'changed' : 'appeared'} (${v.slice(0, 80)})`);
  for (const k of before.keys()) if (!after.has(k)) out.push(`${where}: ${k} disappeared`);
  return out;
}

export function makeSandbox(): Sandbox {
  const canary = `zqcanary${randomBytes(5).toString('hex')}`;
  const secret = `# Secret\n\nThe password is ${canary}. Nothing in the vault may ever show this line.\n`;
  const vault = makeVault({
    [PLANTED.seed]: '# Seed\n\nA note that hostile moves start from.\n',
    'Inbox/welcome.md': '# Welcome\n\nThe hostile run searches for this note at the end: armadillo lantern.\n',
    [`${PLANTED.folderNote}/inside.md`]: '# Inside\n\nA note in a folder whose name ends in .md.\n',
    '.obsidian/app.json': '{"theme":"dark"}\n',
    '.memvault/index.sqlite': 'not really a database\n',
    '.trash/old.md': '# Old\n',
    'Templates/daily.md': '# {{date}}\n',
  });
  const root = path.dirname(vault.dir);
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(outside, 'secret-dir'), { recursive: true });
  writeFileSync(path.join(outside, 'secret.md'), secret);
  writeFileSync(path.join(outside, 'secret-dir', 'deep.md'), secret.replace('Secret', 'Deep secret'));
  writeFileSync(path.join(root, 'next-to-vault.md'), secret.replace('Secret', 'Sibling secret'));
  const link = (target: string, rel: string) => symlinkSync(target, path.join(vault.dir, rel));
  link('../../outside/secret.md', PLANTED.fileOut);
  link('../outside/secret.md', PLANTED.rootFileOut);
  mkdirSync(path.join(vault.dir, 'Projects'), { recursive: true });
  link(path.join(outside, 'secret-dir', 'deep.md'), PLANTED.absFileOut);
  link('../../outside', PLANTED.dirOut);
  link('/etc/passwd', PLANTED.passwd);

  // the daemon's own data dir and config sit in the temp root too; they change by design
  const skip = new Set(['vault', 'data', 'memvault.yaml']);
  const outsideBefore = listing(root, skip);
  const passwd = existsSync('/etc/passwd') ? sha('/etc/passwd') : '';
  let reserved = new Map<string, string>();
  const hashReserved = () =>
    new Map(RESERVED.filter((r) => existsSync(path.join(vault.dir, r))).map((r) => [r, sha(path.join(vault.dir, r))]));
  const hidden = () => {
    const out = new Map<string, string>();
    // not .git/info as a whole: git's own auto-gc writes .git/info/refs; .git/info/exclude is hashed with RESERVED
    for (const top of ['.obsidian', '.memvault', '.trash', '.git/hooks']) {
      if (existsSync(path.join(vault.dir, top)))
        for (const [k, v] of listing(path.join(vault.dir, top), new Set())) out.set(`${top}/${k}`, v);
    }
    return out;
  };
  let hiddenBefore = hidden();
  reserved = hashReserved();

  return {
    vault,
    root,
    outside,
    canary,
    sealReserved() {
      reserved = hashReserved();
      hiddenBefore = hidden();
    },
    check() {
      const problems = diff(outsideBefore, listing(root, skip), 'outside the vault');
      if (passwd && sha('/etc/passwd') !== passwd) problems.push('/etc/passwd changed');
      problems.push(...diff(reserved, hashReserved(), 'reserved file'));
      problems.push(...diff(hiddenBefore, hidden(), 'hidden folder'));
      for (const [rel, target] of Object.entries({
        [PLANTED.fileOut]: '../../outside/secret.md',
        [PLANTED.dirOut]: '../../outside',
        [PLANTED.passwd]: '/etc/passwd',
      })) {
        const p = path.join(vault.dir, rel);
        if (!lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() || readlinkSync(p) !== target)
          problems.push(`planted symlink ${rel} was replaced or removed`);
      }
      return problems;
    },
  };
}
