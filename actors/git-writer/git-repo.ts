// The vault's git repository as memvault uses it: one commit per agent mutation, undo by `git revert` (history only
// grows), people's own edits committed as theirs.
import { LOCK_BUSY, retryWhileLocked } from './lock-retry.js';
import { accessSync, constants, lstatSync, readFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fail, type Failure, type Result } from '../../messages/common.js';
import { fastCommitVia } from './spawner.js';
import { cleanGitEnv, git, gitVersion, type GitEnv, type GitFailure, type GitOutput, type GitRunOptions } from './git-cli.js';
import { identityEnv, prepareRepository, STATE_DIR } from './git-init.js';
import { LOG_FORMAT, parseLog, renderMessage, type CommitMessage, type Identity, type LogEntry } from './git-message.js';
import { isUnmerged, parseStatusZ, type StatusEntry } from './git-status.js';
import { settleCutOffUndo } from './undo-marker.js';
import { undoLast, type UndoPorts, type UndoResult } from './undo-last.js';

export type { CommitMessage, CommitOp, Identity, LogEntry } from './git-message.js';
export { STATE_DIR } from './git-init.js';

export interface GitRepoOptions {
  /** memvault's identity: author and committer of agent commits and undos (the agent goes in a trailer). */
  author: Identity;
  /** The vault owner: author and committer of edits made outside memvault, and of the initial import. */
  person: Identity;
  /** Extra environment for every git process (tests point PATH at an empty dir). */
  env?: GitEnv;
  /** How many commits `undoLast` looks back for something to undo. */
  undoScan?: number;
  /** Run `git maintenance run --auto` after this many commits (commits themselves never spawn it). */
  maintenanceEvery?: number;
  /** Told about problems that do not fail the operation (maintenance that failed). */
  onWarning?: (message: string) => void;
  /** Files memvault only appends to (the tombstones): an undo of one append survives later ones (append-undo.ts). */
  appendOnly?: (rel: string) => boolean;
}

export type OpenFailure = Failure<'git_missing' | 'git_too_old' | 'git_failed' | 'inside_repo'>;
export type CommitResult = Result<{ sha: string }, 'git_failed' | 'nothing_to_commit' | 'ignored'>;
export type { UndoResult } from './undo-last.js';
export type HumanCommitResult = Result<{ sha: string; paths: string[] }, 'nothing_to_commit' | 'git_failed'>;

// Settings for the commands that write. Commits must not spawn `git maintenance` (one more process each; we run it
// every `maintenanceEvery` commits instead), must not wait on a GPG pinentry a daemon cannot answer, and must not let
// rerere resolve an undo's conflict behind our back. Reads get only the literal-pathspec env (see #git).
const WRITE_CONFIG = ['-c', 'maintenance.auto=false', '-c', 'gc.auto=0', '-c', 'commit.gpgSign=false', '-c', 'rerere.enabled=false'];

/**
 * Paths come validated from the vault writer, or (`people`) as the OS named a file a person made; anything else here
 * is a bug, not an outcome. A backslash is refused from agents but is an ordinary character in a name on disk, and
 * git commits it as one: a person's `back\slash.md` must not stop the edits committed with it.
 */
function checkPaths(paths: readonly string[], from: 'agent' | 'people' = 'agent'): string[] {
  if (paths.length === 0) throw new TypeError('paths must name at least one note');
  for (const p of paths) {
    if (
      p === '' ||
      p.includes('\0') ||
      p.startsWith('/') ||
      p.split('/').some((s) => s === '..' || s === '.' || s === '') ||
      (from === 'agent' && p.includes('\\'))
    ) {
      throw new TypeError(`path ${JSON.stringify(p)} must be vault-relative with POSIX separators`);
    }
  }
  return [...new Set(paths)];
}

type Job = () => Promise<void>;
/** An agent commit waiting in the queue: consecutive ones are made in one batch (see #commitBatch). */
type CommitJob = { paths: string[]; msg: CommitMessage; done: (r: CommitResult) => void; failed: (e: unknown) => void };
/** The most agent commits made in one batch. */
const BATCH_MAX = 64;

/** Where git keeps this repository's parts (see prepareRepository). */
type RepoPaths = { gitDir: string; commonDir: string; objectsDir: string; indexFile: string };

const isStatePath = (p: string): boolean => p === STATE_DIR || p.startsWith(`${STATE_DIR}/`);
const isMarkdown = (p: string): boolean => p.toLowerCase().endsWith('.md');

export class GitRepo {
  /** The work tree's top, symlinks resolved. */
  readonly root: string;
  readonly #author: Identity;
  readonly #person: Identity;
  readonly #env: GitEnv;
  readonly #hexLen: number;
  readonly #undoScan: number;
  readonly #maintenanceEvery: number;
  readonly #onWarning: (message: string) => void;
  readonly #appendOnly: (rel: string) => boolean;
  // Paths git tracks, as last seen. Only a hint that saves a process per commit (a tracked note needs no `git add`):
  // when it is wrong, git says so and we ask it (#refreshTracked), so correctness never rests on it.
  readonly #tracked: Set<string>;
  // One queue for everything: git takes index.lock, so our own commands never overlap, in the order they were asked.
  readonly #jobs: (Job | CommitJob)[] = [];
  #pumping = false;
  #commitsSinceMaintenance = 0;
  readonly #where: RepoPaths;
  /** `-c` settings of every command that writes, core.abbrev at the full length (commit summaries name whole ids). */
  readonly #writeConfig: string[];
  readonly #undoPorts: UndoPorts;

  private constructor(root: string, opts: GitRepoOptions, hexLen: number, tracked: Set<string>, where: RepoPaths) {
    this.root = root;
    this.#author = opts.author;
    this.#person = opts.person;
    this.#env = opts.env ?? {};
    this.#hexLen = hexLen;
    this.#undoScan = opts.undoScan ?? 1000;
    this.#maintenanceEvery = opts.maintenanceEvery ?? 200;
    this.#onWarning = opts.onWarning ?? (() => {});
    this.#appendOnly = opts.appendOnly ?? (() => false);
    this.#tracked = tracked;
    this.#where = where;
    this.#writeConfig = [...WRITE_CONFIG, '-c', `core.abbrev=${hexLen}`];
    this.#undoPorts = {
      root,
      gitDir: where.gitDir,
      author: opts.author,
      undoScan: this.#undoScan,
      writeConfig: this.#writeConfig,
      appendOnly: this.#appendOnly,
      git: (args, o) => this.#git(args, o),
      log: (limit) => this.#log(limit),
      shaFrom: (out) => this.#shaFrom(out),
      noteCommitted: (paths) => this.#noteCommitted(paths),
      commitArgs: (pathspec) => this.#commitArgs(pathspec),
    };
  }

  /**
   * Opens the repository whose work tree top is `root`, creating it (`git init -b main`) if `root` is a plain folder.
   * Adds `/.memvault/` to `.git/info/exclude` — not to a committed `.gitignore`, so the user's repository gains no file
   * they did not write. A repository without commits gets one: the existing `*.md` notes, committed as `person`.
   * A folder inside another repository's work tree is refused (`inside_repo`): committing there would mix the
   * vault's history into a project's.
   */
  static async open(root: string, opts: GitRepoOptions): Promise<GitRepo | OpenFailure> {
    const v = await gitVersion(opts.env);
    if (!v.ok) return v;
    let real: string;
    try {
      real = await realpath(root);
    } catch (err) {
      return fail('git_failed', `vault root ${root} cannot be opened (${(err as Error).message}); create it or fix the vault path`);
    }
    const prep = await prepareRepository(real, { person: opts.person, env: opts.env ?? {}, writeConfig: WRITE_CONFIG });
    if (!prep.ok) return prep;
    return new GitRepo(real, opts, prep.hexLen, prep.tracked, {
      gitDir: prep.gitDir,
      commonDir: prep.commonDir,
      objectsDir: prep.objectsDir,
      indexFile: prep.indexFile,
    });
  }

  /**
   * Commits exactly `paths` as they are in the work tree (added, modified or deleted) — nothing else, even if a person
   * has other uncommitted edits or staged changes — as one commit by `author`. For a move pass [from, to].
   * One git process for notes git already tracks, two for a new note (`git add`, then the commit).
   */
  commit(paths: string[], msg: CommitMessage): Promise<CommitResult> {
    const unique = checkPaths(paths);
    return new Promise((done, failed) => {
      this.#jobs.push({ paths: unique, msg, done, failed });
      if (!this.#pumping) void this.#pump();
    });
  }

  /**
   * Reverts the most recent agent commit (write, delete or move; only `agent`'s if given) that no later commit has
   * reverted, with `git revert` — history grows, nothing is reset. Undo commits are never themselves undone here,
   * so calling it twice undoes two changes. On a conflict (the note changed since, or has uncommitted edits) the
   * revert is aborted and the work tree is left as it was.
   */
  undoLast(opts: { agent?: string; byAgent: string; reason?: string }): Promise<UndoResult> {
    return this.#serial(() => undoLast(this.#undoPorts, opts));
  }

  /** At start, before anything else commits: an undo the last run was killed in is put back (undo-marker.ts). */
  settleCutOffUndo(): ReturnType<typeof settleCutOffUndo> {
    return this.#serial(() => settleCutOffUndo(this.#undoPorts));
  }

  /**
   * Commits, as `person`, what changed among `paths` — or, without `paths`, every changed `*.md` note in the vault
   * (never `.memvault/`). Notes with an unfinished merge are left alone.
   */
  commitHumanChanges(paths?: string[], as?: Identity): Promise<HumanCommitResult> {
    const want = paths === undefined ? undefined : new Set(checkPaths(paths, 'people').map((p) => p.normalize('NFC')));
    return this.#serial(() => this.#commitHuman(want, as));
  }

  /** Paths with uncommitted changes (both sides of a rename), from `git status`. Includes non-notes. */
  async dirtyPaths(): Promise<string[]> {
    const st = await this.#serial(() => this.#status());
    if (!st.ok) throw new Error(st.message); // a status that fails on a repo we opened is a broken repo, not an outcome
    const out = new Set<string>();
    for (const e of st.entries) {
      out.add(e.path);
      if (e.from !== undefined) out.add(e.from);
    }
    return [...out];
  }

  /**
   * Why an agent's commit made now would belong to no branch, or null: HEAD detached (a person checked out a commit,
   * or a rebase is under way). Such a commit was acknowledged and then left the vault when the person checked out
   * their branch again (reachable only through the reflog). One small file read per write or undo (`retry`: what to
   * do again once a branch is checked out).
   */
  headProblem(retry = 'write again'): string | null {
    let head: string;
    try {
      head = readFileSync(path.join(this.#where.gitDir, 'HEAD'), 'utf8');
    } catch {
      return null; // git says what is wrong when it runs
    }
    if (head.startsWith('ref: ')) return null;
    return `the vault's git HEAD is detached (a commit is checked out, or a rebase is under way): a commit made now would belong to no branch and leave the vault at the next checkout; check out a branch (git switch main) or finish the rebase, then ${retry} — nothing was changed`;
  }

  /** The newest `limit` commits on HEAD, trailers parsed. */
  async log(limit: number): Promise<LogEntry[]> {
    const r = await this.#serial(() => this.#log(limit));
    if (!r.ok) throw new Error(r.message);
    return r.entries;
  }

  // ---- internals (each runs from #pump: git takes index.lock, so our own commands must not overlap) ----

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      this.#jobs.push(() => fn().then(resolve, reject));
      if (!this.#pumping) void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      for (let job = this.#jobs.shift(); job; job = this.#jobs.shift()) {
        if (typeof job === 'function') {
          await job();
          continue;
        }
        const batch = [job];
        while (batch.length < BATCH_MAX && this.#jobs[0] !== undefined && typeof this.#jobs[0] !== 'function')
          batch.push(this.#jobs.shift() as CommitJob);
        await this.#commitBatch(batch).catch((e: unknown) => {
          for (const j of batch) j.failed(e);
        });
      }
    } finally {
      this.#pumping = false;
    }
  }

  async #git(args: string[], opts: GitRunOptions = {}): Promise<GitOutput | GitFailure> {
    // Literal pathspecs: a note called `[draft] *.md` or `:x.md` must name that file, not a pattern or magic.
    const run = (): Promise<GitOutput | GitFailure> =>
      git(this.root, args, { ...opts, env: { ...this.#env, GIT_LITERAL_PATHSPECS: '1', ...opts.env } });
    return retryWhileLocked(run, (r) => !r.ok && LOCK_BUSY.test(r.stderr));
  }

  /** Whether git can read the file at `p` to stage it, or it is gone (its deletion is staged without reading). */
  #readableOrGone(p: string): boolean {
    try {
      accessSync(path.join(this.root, p), constants.R_OK);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT';
    }
  }

  // synchronous: asked after every commit, and one lstat costs less than a thread-pool hop
  async #exists(p: string): Promise<boolean> {
    try {
      return lstatSync(path.join(this.root, p), { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false;
    }
  }

  async #refreshTracked(paths: string[]): Promise<void> {
    const r = await this.#git(['ls-files', '-z', '--', ...paths]);
    if (!r.ok) return; // the commit that follows reports the real problem
    const listed = new Set(r.stdout.split('\0'));
    for (const p of paths) {
      if (listed.has(p)) this.#tracked.add(p);
      else this.#tracked.delete(p);
    }
  }

  async #noteCommitted(paths: string[]): Promise<void> {
    for (const p of paths) {
      if (await this.#exists(p)) this.#tracked.add(p);
      else this.#tracked.delete(p);
    }
    if (++this.#commitsSinceMaintenance >= this.#maintenanceEvery) {
      this.#commitsSinceMaintenance = 0;
      // `--auto` only acts past git's thresholds (6,700 loose objects, 50 packs); gc then detaches.
      const m = await this.#git(['maintenance', 'run', '--auto', '--quiet']);
      if (!m.ok) this.#onWarning(`git maintenance failed; the repository keeps working but grows: ${m.message}`);
    }
  }

  /** `[main 0123…] subject` — the summary `git commit`/`git revert` print, with core.abbrev set to the full length. */
  async #shaFrom(out: string): Promise<string | Failure<'git_failed'>> {
    const m = new RegExp(`^\\[.* ([0-9a-f]{${this.#hexLen}})\\]`, 'm').exec(out);
    if (m) return m[1]!;
    const r = await this.#git(['rev-parse', '--verify', 'HEAD']);
    return r.ok ? r.stdout.trim() : fail('git_failed', r.message);
  }

  #commitArgs(pathspec: string[] | null): string[] {
    const base = [...this.#writeConfig, 'commit', '--no-verify', '--cleanup=whitespace', '-F', '-'];
    return pathspec === null ? base : [...base, '--only', '--', ...pathspec];
  }

  /**
   * Agent commits queued together, made over the spawner's long-lived git processes (fast-commit.ts) in one batch:
   * still one commit per write, HEAD moved once, git's index brought in line once, each answered after that. Those
   * the batch cannot make (`fallback`, or a git process died and nothing moved) go through the porcelain, in order.
   */
  async #commitBatch(batch: CommitJob[]): Promise<void> {
    const out = await fastCommitVia({
      root: this.root,
      ...this.#where,
      hexLen: this.#hexLen,
      env: cleanGitEnv(this.#env),
      items: batch.map((j) => ({ paths: j.paths, msg: j.msg })),
      who: this.#author,
    });
    if (out.kind === 'error') this.#onWarning(`fast commit fell back to git commit: ${out.message}`);
    const results = out.kind === 'fast' ? out.results : [];
    for (const [i, j] of batch.entries()) {
      const r = results[i];
      if (r === undefined || (!r.ok && r.reason === 'fallback')) {
        j.done(await this.#commitAsAuthor(j.paths, j.msg));
        // the rest of the batch was not made: back to the front of the queue, for the next batch
        if (r !== undefined) this.#jobs.unshift(...batch.slice(i + 1));
        else continue;
        return;
      }
      if (r.ok) {
        await this.#noteCommitted(r.changes.map((c) => c.path));
        j.done({ ok: true, sha: r.sha });
      } else j.done(r);
    }
  }

  async #commitAsAuthor(paths: string[], msg: CommitMessage): Promise<CommitResult> {
    let refreshed = false;
    for (;;) {
      const exists = await Promise.all(paths.map((p) => this.#exists(p)));
      const untrackedMissing = paths.filter((p, i) => !this.#tracked.has(p) && !exists[i]);
      if (untrackedMissing.length > 0 && !refreshed) {
        // A vanished note we think git does not know: ask (a person may have committed it by hand).
        refreshed = true;
        await this.#refreshTracked(untrackedMissing);
        continue;
      }
      const toAdd = paths.filter((p, i) => !this.#tracked.has(p) && exists[i]);
      const pathspec = paths.filter((p) => this.#tracked.has(p) || toAdd.includes(p));
      if (pathspec.length === 0)
        return fail('nothing_to_commit', `${paths.join(', ')}: not in the work tree and not tracked by git; nothing to record`);

      if (toAdd.length > 0) {
        // `commit --only` refuses paths git does not know yet, so a new note costs one `git add` first.
        const a = await this.#git(['add', '--', ...toAdd]);
        if (!a.ok) {
          if (/ignored by one of your \.gitignore/.test(a.stderr)) {
            return fail(
              'ignored',
              `${toAdd.join(', ')} is ignored by the vault's .gitignore; the note was written but cannot be committed — move it or change .gitignore`,
            );
          }
          return fail('git_failed', a.message);
        }
      }

      const c = await this.#git(this.#commitArgs(pathspec), { input: renderMessage(msg), env: identityEnv(this.#author) });
      if (c.ok) {
        const sha = await this.#shaFrom(c.stdout);
        if (typeof sha !== 'string') return sha;
        await this.#noteCommitted(pathspec);
        return { ok: true, sha };
      }
      if (/did not match any file\(s\) known to git/.test(c.stderr) && !refreshed) {
        refreshed = true; // our hint was stale (a person ran `git rm --cached`?): ask git and try once more
        await this.#refreshTracked(paths);
        continue;
      }
      if (/nothing to commit|no changes added to commit|nothing added to commit/.test(c.stdout)) {
        return fail('nothing_to_commit', `${pathspec.join(', ')}: the work tree matches the last commit; nothing to record`);
      }
      return fail('git_failed', c.message);
    }
  }

  async #log(limit: number): Promise<{ ok: true; entries: LogEntry[] } | Failure<'git_failed'>> {
    const r = await this.#git(['-c', 'log.showSignature=false', 'log', '-z', `-n${limit}`, `--format=${LOG_FORMAT}`, 'HEAD']);
    if (!r.ok) return fail('git_failed', r.message);
    return { ok: true, entries: parseLog(r.stdout) };
  }

  async #status(): Promise<{ ok: true; entries: StatusEntry[] } | Failure<'git_failed'>> {
    // GIT_OPTIONAL_LOCKS=0: status would otherwise take index.lock to save its refresh, and could make a person's
    // concurrent git command fail.
    const r = await this.#git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all'], {
      env: { GIT_OPTIONAL_LOCKS: '0' },
    });
    if (!r.ok) return fail('git_failed', r.message);
    return { ok: true, entries: parseStatusZ(r.stdout) };
  }

  async #commitHuman(want: Set<string> | undefined, as?: Identity): Promise<HumanCommitResult> {
    const st = await this.#status();
    if (!st.ok) return st;
    const chosen = st.entries.filter((e) => {
      const sides = e.from === undefined ? [e.path] : [e.path, e.from];
      if (sides.some(isStatePath)) return false;
      // asked by NFC name (the watcher's key); git names the file by its bytes on disk, which may be NFD
      return want === undefined ? sides.some(isMarkdown) : sides.some((p) => want.has(p.normalize('NFC')));
    });
    const merging = chosen.filter(isUnmerged);
    // A note its owner may not read (chmod 000) made `git add` refuse the whole batch, retried for good: every other
    // edit in it stayed out of git. It is left out, with a warning; making it readable again is an OS event, and the
    // next start reads git status anyway.
    const unreadable = chosen.filter((e) => !isUnmerged(e) && !this.#readableOrGone(e.path));
    if (unreadable.length > 0)
      this.#onWarning(`${unreadable.map((e) => e.path).join(', ')}: cannot be read (permissions), so not committed; the other edits are`);
    const ready = chosen.filter((e) => !isUnmerged(e) && !unreadable.includes(e));
    if (ready.length === 0) {
      if (merging.length > 0)
        return fail('git_failed', `${merging.map((e) => e.path).join(', ')}: a merge is unfinished; finish it with git first`);
      return fail(
        'nothing_to_commit',
        want === undefined ? 'no note has uncommitted changes' : `${[...want].join(', ')}: no uncommitted changes`,
      );
    }
    const sides = (e: StatusEntry): string[] => (e.from === undefined ? [e.path] : [e.path, e.from]);
    // Only what the work tree changed needs `git add`. A change already staged (a person's `git add`, or our own
    // commit killed between its add and its commit) is committed as staged: `add -A` of a staged deletion is not
    // in the index nor on disk, and git refuses the whole add ("pathspec did not match any files"). So is a staged
    // rename's source: only its target can have changed on disk since (`RM`, `RD`).
    const toStage = [...new Set(ready.filter((e) => e.worktree !== ' ').map((e) => e.path))];
    // Added (or renamed, copied) into the index and then deleted from disk: after `add -A` git no longer knows it, and
    // `--only` would refuse it.
    const vanished = new Set(ready.filter((e) => 'ARC'.includes(e.index) && e.worktree === 'D').map((e) => e.path));
    const toCommit = [...new Set(ready.flatMap(sides))].filter((p) => !vanished.has(p)).sort();
    if (toStage.length > 0) {
      const a = await this.#git(['add', '-A', '--', ...toStage]);
      if (!a.ok) return fail('git_failed', a.message);
    }
    if (toCommit.length === 0) return fail('nothing_to_commit', 'the only changes were notes added and deleted again before any commit');
    const c = await this.#git(this.#commitArgs(toCommit), {
      input: renderMessage({ op: 'human', paths: toCommit }),
      env: identityEnv(as ?? this.#person),
    });
    if (!c.ok) {
      if (/nothing to commit|no changes added to commit/.test(c.stdout))
        return fail('nothing_to_commit', 'the changes cancel out; nothing to record');
      return fail('git_failed', c.message);
    }
    const sha = await this.#shaFrom(c.stdout);
    if (typeof sha !== 'string') return sha;
    await this.#noteCommitted(toCommit);
    return { ok: true, sha, paths: toCommit };
  }
}
