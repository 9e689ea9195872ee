// Symlinks built for real in a temp vault: folder links out of the vault, to its parent, to itself, and note links
// in and out — every write, delete and move through one is refused as path_escape and changes nothing.
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveVaultPath } from '../../../actors/git-writer/vault/paths.js';
import { VaultWriter } from '../../../actors/git-writer/vault/vault-writer.js';
import { AGENT, ALLOWLIST, sandbox, snapshot, writerFor, type Sandbox, type Teardown } from './helpers.js';

function linked(t: Teardown): Sandbox {
  const s = sandbox(t);
  const inbox = path.join(s.vault, 'Inbox');
  writeFileSync(path.join(s.vault, 'Meetings', 'real.md'), 'the real note\n');
  symlinkSync(s.outside, path.join(inbox, 'out')); // folder outside the vault
  symlinkSync('/etc', path.join(inbox, 'etc'));
  symlinkSync('..', path.join(inbox, 'up')); // the vault root: a way around the allowlist
  symlinkSync('../..', path.join(inbox, 'parent')); // the folder holding the vault
  symlinkSync('.', path.join(inbox, 'self'));
  symlinkSync('../Meetings/real.md', path.join(inbox, 'link.md')); // a note inside the vault
  symlinkSync(s.sentinel, path.join(inbox, 'evil.md')); // a note outside it
  symlinkSync(path.join(s.outside, 'created.md'), path.join(inbox, 'dangling.md')); // a note that would be created outside
  symlinkSync(s.outside, path.join(s.vault, 'Linked')); // an allowlisted top-level folder that is a link
  mkdirSync(path.join(inbox, 'folder.md'));
  writeFileSync(path.join(inbox, 'file.md'), 'a note\n');
  return s;
}

const throughLinks = [
  'Inbox/out/x.md',
  'Inbox/out/sentinel.md',
  'Inbox/etc/passwd.md',
  'Inbox/up/Secrets/x.md',
  'Inbox/up/Inbox/x.md',
  'Inbox/parent/outside/sentinel.md',
  'Inbox/self/x.md',
  'Inbox/link.md',
  'Inbox/evil.md',
  'Inbox/dangling.md',
  'Linked/x.md',
  'Linked/sentinel.md',
];

t.test('writes, deletes and moves through any symlink are path_escape and change nothing', async (t) => {
  const s = linked(t);
  const writer = new VaultWriter({ root: s.vault, allowlist: [...ALLOWLIST, 'Linked'] });
  const before = snapshot(s.top);
  for (const p of throughLinks) {
    const checked = resolveVaultPath(s.vault, p, { allowlist: [...ALLOWLIST, 'Linked'] });
    t.equal(checked.ok ? 'ok' : checked.reason, 'path_escape', `${p}: path check`);
    if (!checked.ok) t.match(checked.message, /is a symlink; memvault never writes through symlinks/, `${p}: says why`);
    for (const op of [
      { op: 'write', path: p, content: 'pwned\n' },
      { op: 'delete', path: p },
      { op: 'move', from: p, to: 'Inbox/moved.md' },
      { op: 'move', from: 'Inbox/existing.md', to: p },
    ] as const) {
      const r = await writer.apply(op, { ...AGENT, mayReadSensitive: true });
      t.equal(r.ok ? 'ok' : r.reason, 'path_escape', `${p}: ${op.op}`);
    }
  }
  t.same(snapshot(s.top), before, 'the vault, the link targets and the sentinel are unchanged');
  t.equal(readFileSync(path.join(s.vault, 'Meetings', 'real.md'), 'utf8'), 'the real note\n');
  t.notOk(existsSync(path.join(s.outside, 'created.md')), 'the dangling link target was not created');
  t.notOk(existsSync('/etc/passwd.md'));
});

t.test('a folder or a file standing where the path needs the other kind is path_escape', async (t) => {
  const s = linked(t);
  const writer = writerFor(s);
  const before = snapshot(s.top);
  const dir = await writer.apply({ op: 'write', path: 'Inbox/folder.md', content: 'x' }, AGENT);
  t.match(dir, { ok: false, reason: 'path_escape', message: /not a regular file/ });
  const under = await writer.apply({ op: 'write', path: 'Inbox/file.md/x.md', content: 'x' }, AGENT);
  t.match(under, { ok: false, reason: 'path_escape', message: /'Inbox\/file\.md' is a file, not a folder/ });
  t.same(snapshot(s.top), before);
});

t.test('a vault root reached through a symlink is resolved first, and writes land in the real folder', async (t) => {
  const s = sandbox(t);
  const viaLink = path.join(s.top, 'vault-link');
  symlinkSync(s.vault, viaLink);
  const checked = resolveVaultPath(viaLink, 'Inbox/x.md', { allowlist: ALLOWLIST });
  t.same(checked, { ok: true, rel: 'Inbox/x.md', abs: path.join(s.realVault, 'Inbox', 'x.md') });
  const writer = new VaultWriter({ root: viaLink, allowlist: ALLOWLIST });
  const res = await writer.apply({ op: 'write', path: 'Inbox/x.md', content: 'via the link\n' }, AGENT);
  t.equal(res.ok, true);
  t.equal(realpathSync(path.join(s.vault, 'Inbox', 'x.md')), path.join(s.realVault, 'Inbox', 'x.md'));
  t.equal(readFileSync(path.join(s.vault, 'Inbox', 'x.md'), 'utf8'), 'via the link\n');
});
