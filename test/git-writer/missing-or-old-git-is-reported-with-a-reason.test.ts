// Without a usable git, opening the vault fails as data: `git_missing` or `git_too_old`, with what to install.
import t from 'tap';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitVersion } from '../../actors/git-writer/git-cli.js';
import { GitRepo } from '../../actors/git-writer/git-repo.js';
import { MEMVAULT, PERSON, tempDir } from './helpers/vault-repo.js';

t.test('PATH without git gives git_missing and creates nothing', async (t) => {
  const empty = tempDir(t, 'memvault-empty-path-');
  const vault = tempDir(t);
  const r = await GitRepo.open(vault, { author: MEMVAULT, person: PERSON, env: { PATH: empty } });
  t.match(r, { ok: false, reason: 'git_missing', message: /git was not found on PATH/ });
  t.match(await gitVersion({ PATH: empty }), { ok: false, reason: 'git_missing' });
});

t.test('a git older than 2.30 gives git_too_old', async (t) => {
  const bin = tempDir(t, 'memvault-old-git-');
  writeFileSync(join(bin, 'git'), '#!/bin/sh\necho "git version 2.25.1"\n');
  chmodSync(join(bin, 'git'), 0o755);
  const r = await GitRepo.open(tempDir(t), { author: MEMVAULT, person: PERSON, env: { PATH: `${bin}:/usr/bin:/bin` } });
  t.match(r, { ok: false, reason: 'git_too_old', message: /2\.25\.1 is too old.*2\.30\.0/ });
});

t.test('the installed git is read as a version triple', async (t) => {
  const v = await gitVersion();
  t.match(v, { ok: true });
  if (v.ok) t.ok(v.version[0] >= 2 && v.version.length === 3);
});
