// Undoing an agent's change: the newest undoable commit (of one agent, or any) found in the log and reverted with
// `git revert` — history grows, nothing is reset; a revert that conflicts is aborted, except the undo of an append to an
// append-only file, taken out by text (append-undo.ts). Split from git-repo.ts, whose serial queue runs it.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { fail, type Failure, type Result } from '../../messages/common.js';
import { withoutAppended } from './append-undo.js';
import type { GitFailure, GitOutput, GitRunOptions } from './git-cli.js';
import { identityEnv } from './git-init.js';
import { renderMessage, UNDOABLE_OPS, type CommitMessage, type Identity, type LogEntry } from './git-message.js';
import { markUndo, unmarkUndo } from './undo-marker.js';
import { atomicWriteFile } from './vault/atomic.js';
import { sha256Hex } from '../../messages/hash.js';

export type UndoResult =
  | Result<{ sha: string; reverted: string; paths: string[] }, 'nothing_to_undo' | 'conflict' | 'git_failed'>
  /** git refused before touching anything: a note the revert changes, or git's index, holds changes no commit has. */
  | (Failure<'conflict'> & { uncommitted: true });

/** What an undo needs of the repository (GitRepo's internals, handed over from inside its serial queue). */
export interface UndoPorts {
  root: string;
  /** Where the undo in progress is marked (undo-marker.ts). */
  gitDir: string;
  author: Identity;
  /** How many commits back an undo looks. */
  undoScan: number;
  /** `-c` settings every writing git command takes (core.abbrev at the full length included). */
  writeConfig: string[];
  appendOnly: (rel: string) => boolean;
  git(args: string[], opts?: GitRunOptions): Promise<GitOutput | GitFailure>;
  log(limit: number): Promise<{ ok: true; entries: LogEntry[] } | Failure<'git_failed'>>;
  shaFrom(out: string): Promise<string | Failure<'git_failed'>>;
  noteCommitted(paths: string[]): Promise<void>;
  commitArgs(pathspec: string[] | null): string[];
}

export async function undoLast(r0: UndoPorts, opts: { agent?: string; byAgent: string; reason?: string }): Promise<UndoResult> {
  const lg = await r0.log(r0.undoScan);
  if (!lg.ok) return lg;
  // Newest first: a commit reverted by a later one is done with — unless that revert was itself reverted (a redo).
  const reverted = new Set<string>();
  let target: LogEntry | undefined;
  for (const e of lg.entries) {
    if (e.reverts !== undefined && !reverted.has(e.sha)) reverted.add(e.reverts);
    if (e.op === undefined || !UNDOABLE_OPS.includes(e.op) || e.parents.length !== 1) continue;
    if (opts.agent !== undefined && e.agent !== opts.agent) continue;
    if (reverted.has(e.sha)) continue;
    target = e;
    break;
  }
  const whose = opts.agent === undefined ? 'any agent' : `agent ${opts.agent}`;
  if (!target) return fail('nothing_to_undo', `no change by ${whose} is left to undo in the last ${lg.entries.length} commits`);

  const msg: CommitMessage = { op: 'undo', paths: target.paths, agent: opts.byAgent, reverts: target.sha };
  if (opts.reason !== undefined) msg.reason = opts.reason;
  const head = lg.entries[0]!.sha;
  markUndo(r0.gitDir, { head, reverts: target.sha, paths: target.paths });
  try {
    return await revert(r0, target, msg, head);
  } finally {
    unmarkUndo(r0.gitDir);
  }
}

/** `git revert` of `target`, committed with `msg`; on a conflict aborted, or for an append-only file taken out by text. */
async function revert(r0: UndoPorts, target: LogEntry, msg: CommitMessage, head: string): Promise<UndoResult> {
  // `git revert --no-edit` would write git's own message and need a second process to amend it; instead the
  // "editor" git runs is a shell builtin that writes our message into the file git hands it.
  const r = await r0.git([...r0.writeConfig, 'revert', '--edit', '--cleanup=whitespace', '--no-rerere-autoupdate', target.sha], {
    env: { ...identityEnv(r0.author), GIT_EDITOR: 'printf "%s" "$MEMVAULT_COMMIT_MSG" >', MEMVAULT_COMMIT_MSG: renderMessage(msg) },
  });
  const what = `${target.sha.slice(0, 12)} (${target.subject})`;
  if (r.ok) {
    const sha = await r0.shaFrom(r.stdout);
    if (typeof sha !== 'string') return sha;
    const paths = await changedBy(r0, sha, target.paths, r.stdout);
    await r0.noteCommitted(paths);
    return { ok: true, sha, reverted: target.sha, paths };
  }
  const out = `${r.stdout}\n${r.stderr}`;
  if (/nothing to commit/.test(out)) {
    // The change is already gone (a person put the old text back). Record the undo anyway — empty — so the next
    // undo moves on to the change before it instead of stopping here forever.
    msg.note = 'The change was already undone in the work tree; this commit records the undo.';
    const e = await r0.git([...r0.commitArgs(null), '--allow-empty'], {
      input: renderMessage(msg),
      env: identityEnv(r0.author),
    });
    if (!e.ok) return fail('git_failed', e.message);
    const sha = await r0.shaFrom(e.stdout);
    if (typeof sha !== 'string') return sha;
    await r0.noteCommitted([]);
    return { ok: true, sha, reverted: target.sha, paths: target.paths };
  }
  if (/would be overwritten|your local changes/i.test(out)) {
    // git refused before touching anything.
    return {
      ...fail(
        'conflict',
        `cannot undo ${what}: ${target.paths.join(', ')} has uncommitted changes (or changes are staged); commit them first, then undo`,
      ),
      uncommitted: true,
    };
  }
  if (/CONFLICT|could not revert/.test(out)) {
    const conflicted = [...out.matchAll(/^CONFLICT \([^)]*\): Merge conflict in (.+)$/gm)].map((m) => m[1]!);
    const abort = await r0.git(['revert', '--abort']);
    if (!abort.ok) {
      return fail(
        'git_failed',
        `undo of ${what} conflicted and \`git revert --abort\` failed; the work tree needs attention: ${abort.message}`,
      );
    }
    if (target.paths.length > 0 && target.paths.every(r0.appendOnly)) {
      const appended = await undoAppend(r0, target, msg, head);
      if (appended) return appended;
    }
    const which = conflicted.length > 0 ? conflicted.join(', ') : target.paths.join(', ');
    return fail(
      'conflict',
      `cannot undo ${what}: ${which} changed since; nothing was changed — undo the later changes to it first (newest first), or edit it by hand`,
    );
  }
  return fail('git_failed', r.message);
}

/**
 * The notes a revert changed: the reverted commit's, unless git followed a rename a person made since, and the change
 * went to the note's new name. A path gone from disk that git's summary does not list as deleted tells that case (or
 * a name git quotes); git then names them, one process more.
 */
async function changedBy(r0: UndoPorts, sha: string, paths: string[], out: string): Promise<string[]> {
  const deleted = new Set([...out.matchAll(/^ delete mode \d{6} (.+)$/gm)].map((m) => m[1]!));
  const gone = (p: string): boolean => lstatSync(path.join(r0.root, p), { throwIfNoEntry: false }) === undefined;
  if (paths.every((p) => !gone(p) || deleted.has(p))) return paths;
  const d = await r0.git(['diff-tree', '-r', '-z', '--no-commit-id', '--name-only', '--no-renames', sha]);
  return d.ok ? d.stdout.split('\0').filter((p) => p !== '') : paths;
}

/** The undo of an append that later appends made `git revert` conflict on: its lines taken out by text, or null. */
async function undoAppend(r0: UndoPorts, target: LogEntry, msg: CommitMessage, head: string): Promise<UndoResult | null> {
  const next: Array<[string, string]> = [];
  for (const p of target.paths) {
    const [before, after, current] = await Promise.all([
      r0.git(['show', `${target.sha}^:${p}`]),
      r0.git(['show', `${target.sha}:${p}`]),
      r0.git(['show', `HEAD:${p}`]),
    ]);
    if (!after.ok || !current.ok) return null;
    const text = withoutAppended(before.ok ? before.stdout : '', after.stdout, current.stdout);
    if (text === null) return null;
    next.push([p, text]);
  }
  const hashes = Object.fromEntries(next.map(([p, text]) => [p, sha256Hex(Buffer.from(text, 'utf8'))]));
  markUndo(r0.gitDir, { head, reverts: target.sha, paths: target.paths, hashes });
  for (const [p, text] of next) await atomicWriteFile(path.join(r0.root, p), text);
  msg.note = 'Later changes to the file were kept: only the lines this change appended were taken out.';
  const c = await r0.git(r0.commitArgs(target.paths), { input: renderMessage(msg), env: identityEnv(r0.author) });
  if (!c.ok) return fail('git_failed', c.message);
  const sha = await r0.shaFrom(c.stdout);
  if (typeof sha !== 'string') return sha;
  await r0.noteCommitted(target.paths);
  return { ok: true, sha, reverted: target.sha, paths: target.paths };
}
