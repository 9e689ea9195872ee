// Content checks: over the byte cap is too_large (counted in UTF-8 bytes), NUL or broken Unicode is invalid_content,
// path problems come first, and a refused write leaves the existing note untouched.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MAX_BYTES } from '../../../actors/git-writer/vault/types.js';
import { AGENT, sandbox, snapshot, writerFor } from './helpers.js';

t.test('a 10 MB payload is too_large and changes nothing', async (t) => {
  const s = sandbox(t);
  const before = snapshot(s.top);
  const res = await writerFor(s).apply({ op: 'write', path: 'Inbox/existing.md', content: 'x'.repeat(10 * 1024 * 1024) }, AGENT);
  t.match(res, {
    ok: false,
    reason: 'too_large',
    message: `content is ${10 * 1024 * 1024} bytes in UTF-8, over the ${DEFAULT_MAX_BYTES}-byte limit`,
  });
  t.same(snapshot(s.top), before);
});

t.test('the cap counts UTF-8 bytes, not characters, and the cap itself is allowed', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s, { maxBytes: 10 });
  const atCap = await writer.apply({ op: 'write', path: 'Inbox/a.md', content: 'ééééé' }, AGENT); // 5 characters, 10 bytes
  t.equal(atCap.ok, true);
  const over = await writer.apply({ op: 'write', path: 'Inbox/b.md', content: 'éééééa' }, AGENT); // 6 characters, 11 bytes
  t.match(over, { ok: false, reason: 'too_large', message: /11 bytes/ });
});

t.test('NUL and lone surrogates are invalid_content and leave the old note as it was', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s);
  const before = snapshot(s.top);
  const nul = await writer.apply({ op: 'write', path: 'Inbox/existing.md', content: 'text\u0000more' }, AGENT);
  t.match(nul, { ok: false, reason: 'invalid_content', message: /NUL character at index 4/ });
  const lone = await writer.apply({ op: 'write', path: 'Inbox/existing.md', content: 'broken \ud83d text' }, AGENT);
  t.match(lone, { ok: false, reason: 'invalid_content', message: /lone surrogate at index 7/ });
  const paired = await writer.apply({ op: 'write', path: 'Inbox/emoji.md', content: 'fine \ud83d\ude00\n' }, AGENT);
  t.equal(paired.ok, true, 'a proper surrogate pair (an emoji) is text');
  t.same(snapshot(s.top)['vault/Inbox/existing.md'], before['vault/Inbox/existing.md']);
  t.equal(readFileSync(path.join(s.vault, 'Inbox', 'emoji.md'), 'utf8'), 'fine 😀\n');
});

t.test('checks run in order: path, then size, then content', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s, { maxBytes: 100 });
  const huge = `${'x'.repeat(200)}\u0000`;
  t.match(await writer.apply({ op: 'write', path: '../x.md', content: huge }, AGENT), { reason: 'path_escape' });
  t.match(await writer.apply({ op: 'write', path: 'Secrets/x.md', content: huge }, AGENT), { reason: 'outside_allowlist' });
  t.match(await writer.apply({ op: 'write', path: 'Inbox/x.md', content: huge }, AGENT), { reason: 'too_large' });
  t.match(await writer.apply({ op: 'write', path: 'Inbox/x.md', content: 'x\u0000' }, AGENT), { reason: 'invalid_content' });
});

t.test('bad writer options fail loudly, naming the option', async (t) => {
  const s = sandbox(t);
  t.throws(() => writerFor(s, { maxBytes: 0 }), /maxBytes must be a positive integer/);
  t.throws(() => writerFor(s, { allowlist: ['Inbox/Sub'] }), /allowlist entries must be plain top-level folder names; 'Inbox\/Sub'/);
  t.throws(() => writerFor(s, { allowlist: ['.git'] }), /'\.git' is not.*hidden/);
});

t.test('an unreachable vault folder is unavailable, not a crash', async (t) => {
  const s = sandbox(t);
  const writer = writerFor(s, { root: path.join(s.top, 'no-such-vault') });
  t.match(await writer.apply({ op: 'write', path: 'Inbox/x.md', content: 'x' }, AGENT), {
    ok: false,
    reason: 'unavailable',
    message: /ENOENT/,
  });
});
