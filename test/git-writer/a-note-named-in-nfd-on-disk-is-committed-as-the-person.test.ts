// The watcher names notes by NFC (its key); git names a file by its bytes on disk, which a person's tool may have
// written in NFD. Asked by the NFC name, the person-commit used to find nothing and left the note untracked for good.
import t from 'tap';
import { git, status, vaultWith, write } from './helpers/vault-repo.js';

t.test('a note asked for by its NFC name is committed under the name it has on disk', async (t) => {
  const { dir, repo } = await vaultWith(t, { 'kept.md': 'k\n' });
  const nfd = 'Cafe\u0301.md';
  write(dir, nfd, 'une note\n');
  const r = await repo.commitHumanChanges([nfd.normalize('NFC')]);
  t.match(r, { ok: true, paths: [nfd] });
  t.same(git(dir, 'ls-files', '-z').split('\0').filter(Boolean).sort(), [nfd, 'kept.md'].sort());
  t.same(status(dir), [], 'nothing is left untracked');
});
