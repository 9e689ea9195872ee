// A corpus of hostile note paths: each is refused with exactly its reason code, by the path check and by every
// operation, and the temp folder (the vault and a sentinel outside it) is byte-identical afterwards.
import t from 'tap';
import { existsSync } from 'node:fs';
import { resolveVaultPath } from '../../../actors/git-writer/vault/paths.js';
import type { PathReason } from '../../../actors/git-writer/vault/types.js';
import { AGENT, ALLOWLIST, sandbox, snapshot, writerFor } from './helpers.js';

type Row = [input: string, reason: PathReason, message?: RegExp];

const long = (n: number): string => 'a'.repeat(n);
const corpus: Row[] = [
  // traversal
  ['', 'path_escape', /empty/],
  ['..', 'path_escape', /'\.\.' segments are not allowed/],
  ['../', 'path_escape'],
  ['../x.md', 'path_escape', /must stay inside the vault/],
  ['a/../../etc/passwd.md', 'path_escape', /'\.\.' segments/],
  ['Inbox/../../etc/passwd.md', 'path_escape'],
  ['Inbox/../Meetings/x.md', 'path_escape', /'\.\.' segments/],
  ['Inbox/..\\x.md', 'path_escape'],
  ['.', 'path_escape'],
  ['./Inbox/x.md', 'path_escape', /'\.' segments/],
  ['Inbox/./x.md', 'path_escape'],
  ['Inbox//x.md', 'path_escape', /empty folder names/],
  ['Inbox/', 'path_escape', /ends with '\/'/],
  ['Inbox/x.md/', 'path_escape', /ends with '\/'/],
  // URL encoding, single, mixed-case, double, overlong UTF-8
  ['..%2fetc.md', 'path_escape', /URL-encoded/],
  ['%2e%2e/x.md', 'path_escape', /URL-encoded/],
  ['Inbox/%2E%2E/x.md', 'path_escape'],
  ['Inbox%2fx.md', 'path_escape'],
  ['Inbox%5cx.md', 'path_escape'],
  ['Inbox/x%00.md', 'path_escape'],
  ['Inbox/%252e%252e/x.md', 'path_escape', /URL-encoded/],
  ['Inbox/%c0%ae%c0%ae/x.md', 'path_escape'],
  // absolute paths and drive letters
  ['/', 'path_escape'],
  ['/etc/passwd.md', 'path_escape', /absolute paths/],
  ['//server/share/x.md', 'path_escape', /absolute paths/],
  ['C:\\x.md', 'path_escape', /drive letters/],
  ['C:x.md', 'path_escape', /drive letters/],
  ['c:/Inbox/x.md', 'path_escape', /drive letters/],
  ['Inbox/x:stream.md', 'path_escape', /alternate data stream/],
  ['Inbox/x.md:$DATA', 'path_escape'],
  // backslashes and control characters
  ['Inbox\\x.md', 'path_escape', /backslashes/],
  ['Inbox/x\u0000.md', 'path_escape', /NUL/],
  ['Inbox/x\n.md', 'path_escape', /control character U\+000A/],
  ['Inbox/x\u001b.md', 'path_escape'],
  ['Inbox/x\u007f.md', 'path_escape'],
  ['Inbox/\ud800.md', 'path_escape', /lone surrogate/],
  // length
  [`Inbox/${long(300)}.md`, 'too_large', /over the 255-byte limit/],
  [`Inbox/${'é'.repeat(130)}.md`, 'too_large', /over the 255-byte limit/], // 130 characters but 263 bytes
  [`Inbox/${`${long(100)}/`.repeat(11)}x.md`, 'too_large', /over the 1024-byte limit/],
  // hidden folders and files
  ['Inbox/.git/x.md', 'path_escape', /hidden.*\.git, \.obsidian/],
  ['.obsidian/x.md', 'path_escape', /hidden/],
  ['.git/config.md', 'path_escape', /hidden/],
  ['.memvault/x.md', 'path_escape'],
  ['.trash/x.md', 'path_escape'],
  ['Inbox/.hidden.md', 'path_escape', /hidden/],
  ['Inbox/.md', 'path_escape'],
  // Unicode look-alikes of '/', '.', '\' and invisible characters
  ['Inbox\u2215x.md', 'path_escape', /U\+2215, which looks like '\/'/],
  ['Inbox\u2044x.md', 'path_escape', /U\+2044/],
  ['Inbox\uff0fx.md', 'path_escape', /U\+FF0F/],
  ['Inbox\u29f8x.md', 'path_escape'],
  ['Inbox\uff3cx.md', 'path_escape', /looks like '\\'/],
  ['Inbox/\uff0e\uff0e\uff0fx.md', 'path_escape', /U\+FF0E/],
  ['Inbox/\u2024\u2024/x.md', 'path_escape'],
  ['Inbox/\ufe52\ufe52/x.md', 'path_escape'],
  ['Inbox/\u2025/x.md', 'path_escape'],
  ['Inbox/x\ufe30.md', 'path_escape'],
  ['Inbox/a\u2100b.md', 'path_escape', /reads as 'Inbox\/aa\/cb\.md'/], // ℀ folds to "a/c" under NFKC
  ['Inbox/\u200b.git/x.md', 'path_escape', /reads as 'Inbox\/\.git\/x\.md'/], // HFS+ ignores the zero-width space
  ['Inbox/x\u202egpj.md', 'path_escape', /bidirectional/],
  // Windows aliasing
  ['Inbox/x./y.md', 'path_escape', /ends with a space or '\.'/],
  ['Inbox /x.md', 'path_escape', /ends with a space/],
  ['Inbox/x.md.', 'path_escape'],
  ['Inbox/x.md ', 'path_escape'],
  ['Inbox/CON.md', 'path_escape', /device name/],
  ['Inbox/nul.md', 'path_escape'],
  ['Inbox/GIT~1/x.md', 'path_escape', /8\.3 short name/],
  // not markdown
  ['Inbox/x.txt', 'not_markdown', /ending in '\.md'.*'x\.md'/],
  ['Inbox/x', 'not_markdown'],
  ['Inbox/x.md.txt', 'not_markdown'],
  ['Inbox/x.markdown', 'not_markdown'],
  ['Inbox/x.\uff4d\uff44', 'not_markdown'], // fullwidth "ｍｄ"
  ['Secrets/x.txt', 'not_markdown'], // the extension is checked before the folder
  // outside the allowlist
  ['Secrets/x.md', 'outside_allowlist', /top-level folder 'Secrets' is not writable; allowed: Inbox, Meetings/],
  ['x.md', 'outside_allowlist', /vault root.*allowed folder: Inbox, Meetings/],
  ['inbox/x.md', 'outside_allowlist'],
  ['INBOX/x.md', 'outside_allowlist'],
  ['\uff29\uff4e\uff42\uff4f\uff58/x.md', 'outside_allowlist'], // fullwidth "Ｉｎｂｏｘ"
  ['Inboxes/x.md', 'outside_allowlist'],
];

t.test('the corpus is large enough to mean something', async (t) => {
  t.ok(corpus.length >= 60, `${corpus.length} hostile inputs`);
});

t.test('every hostile path gets exactly its reason from the path check and from write, delete and move', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const before = snapshot(s.top);
  for (const [input, reason, message] of corpus) {
    const label = JSON.stringify(input);
    const checked = resolveVaultPath(s.vault, input, { allowlist: ALLOWLIST });
    t.equal(checked.ok ? 'ok' : checked.reason, reason, `${label}: path check`);
    if (!checked.ok && message) t.match(checked.message, message, `${label}: message says what to fix`);
    const ops = [
      { op: 'write', path: input, content: 'hello\n' },
      { op: 'delete', path: input },
      { op: 'move', from: 'Inbox/existing.md', to: input },
      { op: 'move', from: input, to: 'Inbox/moved.md' },
    ] as const;
    const results: string[] = [];
    for (const op of ops) {
      const r = await writer.apply(op, AGENT); // one at a time, as the writer's single caller does
      results.push(r.ok ? 'ok' : r.reason);
    }
    t.same(results, [reason, reason, reason, reason], `${label}: write, delete, move to, move from`);
  }
  t.same(snapshot(s.top), before, 'nothing in the vault or outside it changed');
  t.notOk(existsSync('/etc/passwd.md'), 'nothing was written at the absolute path');
});

t.test('plain and allowed names resolve inside the vault and are written there', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const allowed: Array<[input: string, rel: string]> = [
    ['Inbox/x.MD', 'Inbox/x.MD'], // the extension check ignores case
    ['Inbox/sub/deeper/x.md', 'Inbox/sub/deeper/x.md'],
    ['Inbox/½ mile.md', 'Inbox/½ mile.md'], // NFKC gives "1⁄2": no new '/', so it stays allowed
    ['Inbox/100%25 done.md', 'Inbox/100%25 done.md'], // '%' is only refused where it would decode to . / \ NUL
    ['Inbox/a..b.md', 'Inbox/a..b.md'], // '..' inside a name is not a '..' segment
    ['Meetings/2026-01-01 stand-up ❤️.md', 'Meetings/2026-01-01 stand-up ❤️.md'],
  ];
  for (const [input, rel] of allowed) {
    const checked = resolveVaultPath(s.vault, input, { allowlist: ALLOWLIST });
    t.same(checked, { ok: true, rel, abs: `${s.realVault}/${rel}` }, JSON.stringify(input));
    const res = await writer.apply({ op: 'write', path: input, content: `# ${rel}\n` }, AGENT);
    t.same(res.ok ? res.paths : res, [rel]);
    t.equal(snapshot(s.vault)[rel]?.startsWith('file '), true, `${rel} is a file in the vault`);
  }
});
