// Category 1 of the hostile run: note paths for vault_write / vault_read (gateway) and delete / move (the one
// mutation path), each generated with the outcome it must get — decided from how it was built, not by our checks.
import fc from 'fast-check';
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { PLANTED } from './hostile-sandbox.js';

export const ALLOWED = ['Inbox', 'Meetings', 'People', 'Projects', 'Daily', 'Reviews'];

/** What kind of path the generator built; the expected reason follows from it and the operation. */
export type PathClass = 'escape' | 'too_long' | 'not_md' | 'outside' | 'legal' | 'symlink_out' | 'root_symlink_out' | 'folder';
export interface PathCase {
  path: string;
  cls: PathClass;
  how: string; // which generator made it (shown in problems)
}

// Names that every rule allows: Unicode letters in both normal forms, fullwidth letters, punctuation that means
// nothing to a path. A legal note lands at the NFC spelling of its path.
const LEGAL_PIECES = [
  'note',
  'Ünïcödé',
  'Ünïcödé'.normalize('NFD'),
  '日本語',
  'emoji😀',
  'café',
  'cafe\u0301',
  'a b',
  'x-y_z',
  'ＦｕｌｌＷｉｄｔｈ',
  '한국어'.normalize('NFD'),
  'straße',
  'İstanbul',
  'ﬁle',
  'Ω',
  'with (parens) [brackets] {braces}',
  "it's",
  'a,b;c=d',
  'hash#tag',
  'at@sign',
  'plus+and&',
  'dollar$',
  'tilde~x',
  '50%off',
  'q?mark',
  'Ελληνικά',
  'עברית',
  'Кириллица',
];
const legalName = fc.array(fc.constantFrom(...LEGAL_PIECES), { minLength: 1, maxLength: 3 }).map((a) => a.join(' '));
const allowedTop = fc.constantFrom(...ALLOWED);

const TRAVERSAL = [
  '../',
  'a/../../',
  '..\\',
  '..',
  'Inbox/../../',
  'Inbox/../',
  './',
  '../../../../',
  'Inbox/./',
  'Inbox//',
  '..%2f',
  'Inbox/..',
];
const ENCODED = [
  '%2e%2e%2f',
  '%2E%2E/',
  '..%2f',
  '%2e%2e%5c',
  '%252e%252e%252f',
  '%25252e%25252e/',
  '%c0%ae%c0%ae/',
  '%00',
  'x%2fy',
  '%2F',
];
const LOOK_ALIKES = [
  '\u2215',
  '\uff0f',
  '\uff0e\uff0e',
  '\u2024\u2024',
  '\u2025',
  '\uff3c',
  '\ufe52\ufe52',
  '\u2044',
  '\u29f8',
  '\u0338',
  '\uff61',
];
const ABSOLUTE = [
  '/etc/passwd',
  '/etc/passwd.md',
  'C:\\x.md',
  'C:/Inbox/x.md',
  '\\\\server\\share\\x.md',
  '//server/share/x.md',
  '/Inbox/x.md',
  'c:x.md',
  '/',
  '\\',
];
const RESERVED = [
  '.git/config',
  '.git/HEAD',
  '.git/hooks/pre-commit',
  '.memvault/index.sqlite',
  '.obsidian/app.json',
  '.obsidian/plugins/x/main.js',
  '.trash/x.md',
  'Inbox/.git/config',
  'Inbox/.hidden.md',
  '.md',
  'Inbox/\u200b.git/x.md',
];
const WINDOWS = ['con.md', 'NUL.md', 'com1.md', 'lpt\u00b9.md', 'aux.txt.md', 'GIT~1/x.md', 'x.md:$DATA', 'x:y.md'];
const EMPTY = ['', ' ', '   ', '/', '.', '..', '\u3000'];

const escapes: fc.Arbitrary<PathCase> = fc.oneof(
  fc.tuple(fc.constantFrom(...TRAVERSAL), legalName).map(([t, n]) => ({ path: `${t}${n}.md`, cls: 'escape' as const, how: 'traversal' })),
  fc
    .tuple(allowedTop, fc.constantFrom(...ENCODED), legalName)
    .map(([a, e, n]) => ({ path: `${a}/${e}${n}.md`, cls: 'escape' as const, how: 'url-encoded' })),
  fc
    .tuple(allowedTop, fc.constantFrom(...LOOK_ALIKES), legalName)
    .map(([a, l, n]) => ({ path: `${a}/${l}${l}${n}.md`, cls: 'escape' as const, how: 'unicode look-alike' })),
  fc
    .tuple(fc.constantFrom(...ABSOLUTE), fc.boolean())
    .map(([p, md]) => ({ path: md && !p.endsWith('.md') ? `${p}.md` : p, cls: 'escape' as const, how: 'absolute' })),
  fc
    .tuple(
      allowedTop,
      legalName,
      fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f),
      fc.nat(),
    )
    .map(([a, n, c, at]) => {
      const p = `${a}/${n}.md`;
      const i = at % (p.length + 1);
      return { path: p.slice(0, i) + String.fromCharCode(c) + p.slice(i), cls: 'escape' as const, how: 'control character' };
    }),
  fc.tuple(allowedTop, fc.integer({ min: 256, max: 600 }), fc.constantFrom('a', 'é', '日')).map(([a, n, ch]) => ({
    path: `${a}/${ch.repeat(Math.ceil(n / Buffer.byteLength(ch)))}.md`,
    cls: 'too_long' as const,
    how: 'segment over 255 bytes',
  })),
  fc
    .tuple(allowedTop, fc.integer({ min: 6, max: 9 }))
    .map(([a, k]) => ({ path: `${a}/${`${'é'.repeat(100)}/`.repeat(k)}x.md`, cls: 'too_long' as const, how: 'path over 1024 bytes' })),
  fc
    .tuple(allowedTop, fc.integer({ min: 300, max: 1500 }))
    .map(([a, k]) => ({ path: `${a}/${'abc/'.repeat(k)}x.md`, cls: 'too_long' as const, how: 'path over 1024 characters' })),
  fc.constantFrom(...RESERVED).map((p) => ({ path: p, cls: 'escape' as const, how: 'reserved name' })),
  fc
    .tuple(allowedTop, legalName, fc.constantFrom('.md.', '.md ', '.md...', '.md\u3000'))
    .map(([a, n, s]) => ({ path: `${a}/${n}${s}`, cls: 'escape' as const, how: 'trailing dot or space' })),
  fc
    .tuple(allowedTop, legalName, fc.constantFrom('. ', ' ', '.'))
    .map(([a, n, s]) => ({ path: `${a}${s}/${n}.md`, cls: 'escape' as const, how: 'folder with trailing dot or space' })),
  fc.tuple(allowedTop, fc.constantFrom(...WINDOWS)).map(([a, w]) => ({ path: `${a}/${w}`, cls: 'escape' as const, how: 'windows alias' })),
  fc.constantFrom(...EMPTY).map((p) => ({ path: p, cls: 'escape' as const, how: 'empty or whitespace' })),
  fc
    .tuple(allowedTop, legalName, fc.constantFrom('\u202e', '\u2066', '\u200f'))
    .map(([a, n, b]) => ({ path: `${a}/${n}${b}dm.md`, cls: 'escape' as const, how: 'bidi control' })),
  fc
    .tuple(allowedTop, legalName, fc.constantFrom('\ud800', '\udfff'))
    .map(([a, n, s]) => ({ path: `${a}/${n}${s}.md`, cls: 'escape' as const, how: 'lone surrogate' })),
);

const others: fc.Arbitrary<PathCase> = fc.oneof(
  fc
    .tuple(allowedTop, legalName, fc.constantFrom('.txt', '.json', '.mdx', '.md.txt', '.markdown', '', '.sh', '.js', '.m d', '.md5'))
    .map(([a, n, e]) => ({ path: `${a}/${n}${e}`, cls: 'not_md' as const, how: 'not markdown' })),
  fc
    .tuple(fc.constantFrom('Secret', 'inbox', 'INBOX', 'Drops', 'outside', 'Inbox2', 'Templates', ''), legalName)
    .map(([top, n]) => ({ path: top ? `${top}/${n}.md` : `${n}.md`, cls: 'outside' as const, how: 'outside the allowlist' })),
  fc
    .constantFrom(
      PLANTED.fileOut,
      PLANTED.absFileOut,
      PLANTED.passwd,
      `${PLANTED.dirOut}/secret.md`,
      `${PLANTED.dirOut}/secret-dir/deep.md`,
      `${PLANTED.dirOut}/new.md`,
      `${PLANTED.dirOut}/secret-dir/new.md`,
    )
    .map((p) => ({ path: p, cls: 'symlink_out' as const, how: 'through a symlink out' })),
  fc.constant({ path: PLANTED.rootFileOut, cls: 'root_symlink_out' as const, how: 'symlink out at the vault root' }),
  fc.constantFrom(PLANTED.folderNote).map((p) => ({ path: p, cls: 'folder' as const, how: 'a folder named like a note' })),
);

const legal: fc.Arbitrary<PathCase> = fc
  .tuple(allowedTop, fc.option(legalName, { nil: undefined }), legalName, fc.constantFrom('.md', '.md', '.MD', '.Md'))
  .map(([a, sub, n, ext]) => ({ path: `${a}/${sub === undefined ? '' : `${sub}/`}${n}${ext}`, cls: 'legal' as const, how: 'legal name' }));

/** Weighted: mostly escapes, a tenth legal names (each a write → read → move → delete chain). */
export const pathCases: fc.Arbitrary<PathCase> = fc.oneof(
  { arbitrary: escapes, weight: 6 },
  { arbitrary: others, weight: 3 },
  { arbitrary: legal, weight: 1 },
);

export type PathOp = 'write' | 'read' | 'delete' | 'move_from' | 'move_to';

/** The reason code `op` must get for `c`, or `ok`. `gateway`: the tool schema's own limits come first. */
export function expectedReason(c: PathCase, op: PathOp, gateway: boolean): string {
  if (gateway && (c.path === '' || c.path.length > 1024)) return 'bad_request';
  switch (c.cls) {
    case 'escape':
    case 'symlink_out':
      return 'path_escape';
    case 'too_long':
      return 'too_large';
    case 'not_md':
      return 'not_markdown';
    case 'outside':
      return op === 'read' ? 'not_found' : 'outside_allowlist';
    case 'root_symlink_out':
      return op === 'read' ? 'path_escape' : 'outside_allowlist';
    case 'folder':
      return op === 'read' ? 'not_found' : 'path_escape';
    case 'legal':
      return 'ok';
  }
}

/** Null when a note written as `rel` sits inside the vault, is a plain file and holds `content`; else what is wrong. */
export function landedInside(vault: string, rel: string, content: string | null): string | null {
  const abs = path.join(vault, ...rel.split('/'));
  if (!existsSync(abs)) return `no file at the normalised path ${JSON.stringify(rel)}`;
  if (!lstatSync(abs).isFile()) return `${JSON.stringify(rel)} is not a plain file`;
  const real = realpathSync(abs);
  const root = realpathSync(vault);
  if (!real.startsWith(root + path.sep)) return `${JSON.stringify(rel)} resolves outside the vault (${real})`;
  if (content !== null && readFileSync(abs, 'utf8') !== content) return `${JSON.stringify(rel)} does not hold the content sent`;
  return null;
}
