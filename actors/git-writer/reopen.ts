// The vault folder removed and recreated (or its .git deleted) while the daemon ran: the repository handle points at
// nothing, so the folder is prepared again as at first start (git init, its notes imported as the person's first
// commit). A vault missing altogether is left alone: the write itself is then refused as `unavailable`.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { GitRepo } from './git-repo.js';

function present(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The new repository when the old one had vanished and could be made again; null when nothing was (or could be) done. */
export async function reopenIfGone(
  vault: string,
  root: string,
  open: () => Promise<GitRepo | { reason: string; message: string }>,
  log: Pick<Logger, 'warn' | 'error'>,
): Promise<GitRepo | null> {
  // checked before every write: two synchronous lstat calls cost less than two thread-pool hops
  if (!present(vault)) return null;
  if (present(path.join(root, '.git'))) return null;
  // gone: fall through and re-initialise
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
