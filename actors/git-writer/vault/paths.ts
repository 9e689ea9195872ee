// Turns an agent's note path into a real path inside the vault, or a reason why it may not be written.
import fs from 'node:fs';
import path from 'node:path';
import { fail, type Result } from '../../../messages/common.js';
import { checkVaultPath } from './path-rules.js';
import type { PathOptions, PathReason, ResolvedPath } from './types.js';

/** `p` is `root` or lies below it (both already real paths). */
export function isInside(root: string, p: string): boolean {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return p === root || p.startsWith(prefix);
}

/**
 * Checks `input` (as an agent sent it) lexically, then walks its existing part on disk. Any symlink on the way —
 * folder or note, pointing in or out of the vault — is refused: following one could leave the vault or step around
 * the folder allowlist, and refusing them all is simpler to reason about than judging each target.
 *
 * Synchronous on purpose: a handful of lstat calls, made by the single writer that serialises mutations. The check
 * and the write that follows are not atomic; only someone who can already write to the vault folder directly could
 * swap a folder for a symlink in between.
 * @throws when `root` itself cannot be resolved (a configuration fault, not agent input).
 */
export function resolveVaultPath(
  root: string,
  input: string,
  opts: { allowlist: string[] } & PathOptions,
): Result<ResolvedPath, PathReason> {
  const checked = checkVaultPath(
    input,
    opts.allowlist.map((a) => a.normalize('NFC')),
    opts,
  );
  if (!checked.ok) return checked;
  const { rel, segments } = checked;
  const realRoot = fs.realpathSync.native(root);
  let cur = realRoot;
  for (const [i, seg] of segments.entries()) {
    const next = path.join(cur, seg);
    const st = fs.lstatSync(next, { throwIfNoEntry: false });
    if (st === undefined) break; // the rest will be created by the write, under folders checked so far
    const shown = segments.slice(0, i + 1).join('/');
    if (st.isSymbolicLink()) {
      return fail(
        'path_escape',
        `'${shown}' is a symlink; memvault never writes through symlinks (they can lead outside the vault or around the folder allowlist); write to the real location instead`,
      );
    }
    const last = i === segments.length - 1;
    if (!last && !st.isDirectory())
      return fail('path_escape', `'${shown}' is a file, not a folder, so '${rel}' cannot be created; choose another path`);
    if (last && !st.isFile())
      return fail('path_escape', `'${rel}' exists and is not a regular file (a folder or special file); choose another name`);
    cur = next;
  }
  // Belt and braces: with no symlinks on the way this always holds, but it is the property that matters.
  const real = fs.realpathSync.native(cur);
  if (!isInside(realRoot, real)) return fail('path_escape', `'${rel}' resolves to '${real}', outside the vault; write to a path inside it`);
  return { ok: true, rel, abs: path.join(realRoot, rel) };
}
