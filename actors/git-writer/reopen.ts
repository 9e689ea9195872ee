// The vault folder removed and recreated (or its .git deleted) while the daemon ran: the repository handle points at
// nothing, so the folder is prepared again as at first start (git init, its notes imported as the person's first
// commit). A vault missing altogether is left alone: the write itself is then refused as `unavailable`.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { GitRepo } from './git-repo.js';

/** The new repository when the old one had vanished and could be made again; null when nothing was (or could be) done. */
export async function reopenIfGone(
  vault: string,
  root: string,
  open: () => Promise<GitRepo | { reason: string; message: string }>,
  log: Pick<Logger, 'warn' | 'error'>,
): Promise<GitRepo | null> {
  try {
    await lstat(vault);
  } catch {
    return null;
  }
  try {
    await lstat(path.join(root, '.git'));
    return null;
  } catch {
    // gone: fall through and re-initialise
  }
  const repo = await open();
  if (!(repo instanceof GitRepo)) {
    log.error(
      { event: 'vault_git_unavailable', reason: repo.reason, detail: repo.message },
      'the vault repository vanished and could not be made again',
    );
    return null;
  }
  log.warn({ event: 'vault_git_reinit', root: repo.root }, 'the vault repository had vanished; made it again and imported the notes');
  return repo;
}
