// Read-side checks on agent-supplied vault paths: the write path's own lexical rules (actors/git-writer/vault/
// path-rules.ts — no escapes, no hidden segments, Unicode tricks, `.md` only) minus the folder allowlist, then a
// disk check that the file really lies inside the vault.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { checkVaultPath as checkWritePath } from '../../git-writer/vault/path-rules.js';
import { isInside } from '../../git-writer/vault/paths.js';
import type { ToolOutcome } from './types.js';
import { toolFail } from './types.js';

export type PathKind = 'note' | 'folder';

/**
 * Checks `raw` as a vault-relative note path (or folder, where `''` or `'/'` is the vault root) with the same rules
 * writes use, without the allowlist (any folder may be read). Returns the NFC path.
 */
export function checkVaultPath(raw: string, kind: PathKind, reserved?: (rel: string) => boolean): ToolOutcome<{ rel: string }> {
  if (kind === 'folder') {
    const folder = raw.replace(/\/$/, '');
    if (folder === '') return { ok: true, result: { rel: '' } };
    // a folder is valid when a note inside it would be
    const r = checkVaultPath(`${folder}/x.md`, 'note');
    return r.ok
      ? { ok: true, result: { rel: r.result.rel.slice(0, -'/x.md'.length) } }
      : toolFail(r.error.reason, r.error.message.replaceAll(`${folder}/x.md`, folder));
  }
  // The allowlist is the last rule checkWritePath applies, so `outside_allowlist` means every other rule passed.
  // a write names the fact log's reserved paths (`reserved`) before its extension: tombstones.jsonl is not `not_markdown`
  const r = checkWritePath(raw, [], reserved ? { reserved } : {});
  if (r.ok || r.reason === 'outside_allowlist') return { ok: true, result: { rel: raw.normalize('NFC') } };
  return toolFail(r.reason, r.message);
}

/**
 * checkVaultPath for a note an agent reads (vault_read, vault_link): a path that is no note (a folder, an attachment)
 * is said to be one agents cannot read, where the write rule's message advised renaming it.
 */
export function checkReadPath(raw: string): ToolOutcome<{ rel: string }> {
  const r = checkVaultPath(raw, 'note');
  if (r.ok || r.error.reason !== 'not_markdown') return r;
  const name = raw.normalize('NFC').split('/').pop() ?? raw;
  return toolFail(
    'not_markdown',
    `'${name}' is not a markdown note: agents read only notes, files ending in '.md' (vault_list shows a folder's notes)`,
  );
}

/**
 * The real file for a checked path: `path_escape` when it resolves outside the vault (a symlink out), `not_found`
 * when nothing is there. Unlike writes, reads follow a symlink that stays inside the vault, as the indexer does.
 */
export async function resolveInsideVault(vault: string, rel: string): Promise<ToolOutcome<{ abs: string }>> {
  const abs = path.join(vault, ...rel.split('/'));
  let real: string;
  let root: string;
  try {
    [root, real] = await Promise.all([realpath(vault), realpath(abs)]);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      // behind a symlinked folder that leads out, "not found" would tell an agent which files exist out there
      if (!(await nearestFolderInside(vault, abs)))
        return toolFail('path_escape', `${rel} goes through a symlink that leads outside the vault`);
      return toolFail('not_found', `${rel || 'the vault root'} does not exist`);
    }
    throw err;
  }
  if (!isInside(root, real)) return toolFail('path_escape', `${rel} is a symlink that leads outside the vault`);
  return { ok: true, result: { abs: real } };
}

/** Whether the deepest existing folder above `abs` really lies inside the vault. */
async function nearestFolderInside(vault: string, abs: string): Promise<boolean> {
  const root = await realpath(vault).catch(() => null);
  if (root === null) return true; // no vault folder: nothing out there is reachable either
  for (let p = path.dirname(abs); ; p = path.dirname(p)) {
    try {
      return isInside(root, await realpath(p));
    } catch {
      if (p === vault || path.dirname(p) === p) return true;
    }
  }
}
