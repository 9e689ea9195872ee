// An undo in progress, marked in the repository's git dir (`memvault-undo`) before `git revert` touches the work
// tree: a revert killed before its commit (kill -9 while git waits on its editor step, or between an append-undo's
// file write and its commit) leaves the reverted notes changed and staged with no trace git itself keeps — the next
// start would commit them as the person's edit, an undo nobody was told of, recorded as nobody's; one killed after
// git revert conflicted, before its abort, leaves git's revert in progress, which refuses every later undo. The next start
// finds the mark and puts the notes back as HEAD has them: the undo was never answered, so it did not happen (an
// agent that sends it again undoes once). A note changed since the kill (a person's edit) is left alone.
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../../messages/hash.js';
import type { GitFailure, GitOutput, GitRunOptions } from './git-cli.js';

export interface UndoMark {
  /** HEAD before the undo: a HEAD still there means the undo did not commit. */
  head: string;
  /** The commit being reverted. */
  reverts: string;
  paths: string[];
  /** Content hashes an append-undo writes (it changes the work tree only, not git's index), by path. */
  hashes?: Record<string, string>;
}

export interface MarkPorts {
  root: string;
  gitDir: string;
  git(args: string[], opts?: GitRunOptions): Promise<GitOutput | GitFailure>;
}

const file = (gitDir: string): string => path.join(gitDir, 'memvault-undo');

/** Durable before the revert changes a file. */
export function markUndo(gitDir: string, mark: UndoMark): void {
  const fd = openSync(file(gitDir), 'w');
  try {
    writeSync(fd, JSON.stringify(mark));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function unmarkUndo(gitDir: string): void {
  rmSync(file(gitDir), { force: true });
}

/**
 * At start: an undo the last run was killed in, settled. `restored`: the notes put back as HEAD has them; `kept`:
 * notes changed since the kill, left for the person's commit. Null when no undo was cut off (or it had committed).
 */
export async function settleCutOffUndo(r: MarkPorts): Promise<{ mark: UndoMark; restored: string[]; kept: string[] } | null> {
  let mark: UndoMark;
  try {
    mark = JSON.parse(readFileSync(file(r.gitDir), 'utf8')) as UndoMark;
  } catch {
    unmarkUndo(r.gitDir); // none, or torn by a crash before anything was reverted
    return null;
  }
  const head = await r.git(['rev-parse', '--verify', '-q', 'HEAD']);
  if (!head.ok || head.stdout.trim() !== mark.head) {
    unmarkUndo(r.gitDir); // the undo committed: it happened fully
    return null;
  }
  // killed after `git revert` conflicted, before its `--abort`: git's own revert state, this undo's — abort it as
  // the undo would have (a revert in progress refuses every later one: "you have unmerged files")
  if (revertInProgress(r.gitDir) === mark.reverts) {
    const abort = await r.git(['revert', '--abort']);
    if (abort.ok) {
      unmarkUndo(r.gitDir);
      return { mark, restored: mark.paths, kept: [] };
    }
  }
  const restored: string[] = [];
  const kept: string[] = [];
  for (const p of mark.paths) {
    if (!(await revertedOnly(r, p, mark.reverts, mark.hashes?.[p]))) {
      kept.push(p);
      continue;
    }
    const inHead = await r.git(['cat-file', '-e', `HEAD:${p}`]);
    const reset = await r.git(['reset', '-q', 'HEAD', '--', p]);
    if (!reset.ok) throw new Error(`cannot put ${p} back as HEAD has it: ${reset.message}`);
    if (inHead.ok) {
      const co = await r.git(['checkout', 'HEAD', '--', p]);
      if (!co.ok) throw new Error(`cannot put ${p} back as HEAD has it: ${co.message}`);
    } else {
      try {
        unlinkSync(path.join(r.root, p));
      } catch {
        // already gone
      }
    }
    restored.push(p);
  }
  unmarkUndo(r.gitDir);
  return { mark, restored, kept };
}

function revertInProgress(gitDir: string): string | null {
  try {
    return readFileSync(path.join(gitDir, 'REVERT_HEAD'), 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Whether `p` holds what the cut-off undo left, untouched since: the append-undo's text, or the revert's version (the
 * note as it was before the reverted commit) staged and in the work tree. Anything else — a person's edit or `git add`
 * while the daemon was down, or a revert that merged later changes — is left alone.
 */
async function revertedOnly(r: MarkPorts, p: string, reverts: string, hash: string | undefined): Promise<boolean> {
  if (hash !== undefined) {
    try {
      return sha256Hex(await readFile(path.join(r.root, p))) === hash;
    } catch {
      return false;
    }
  }
  const blob = async (rev: string): Promise<string | null> => {
    const b = await r.git(['rev-parse', '-q', '--verify', rev]);
    return b.ok ? b.stdout.trim() : null;
  };
  const [staged, was, head] = await Promise.all([blob(`:0:${p}`), blob(`${reverts}^:${p}`), blob(`HEAD:${p}`)]);
  if (staged !== was || staged === head) return false; // not the revert's version, or nothing to put back
  const same = await r.git(['diff', '--quiet', '--', p]);
  return same.ok; // the work tree as the revert staged it
}
