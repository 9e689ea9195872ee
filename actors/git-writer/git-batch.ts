// Group commit: when several agent writes are queued at once, ONE `git fast-import` makes their commits (still one
// commit per mutation), so eight agents cost ~4 git processes per round instead of 8–16.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { fail, type Failure } from '../../messages/common.js';
import { cleanGitEnv, type GitEnv, type GitFailure, type GitOutput, type GitRunOptions } from './git-cli.js';
import { renderMessage, type CommitMessage, type Identity } from './git-message.js';

export interface BatchItem {
  paths: string[];
  msg: CommitMessage;
}
export type BatchOutcome = { ok: true; sha: string; committed: string[] } | Failure<'nothing_to_commit' | 'ignored'>;
export interface BatchResult {
  outcomes: BatchOutcome[];
  /** Set when the commits were made but the index update failed: retry `git update-index -z --index-info` with it. */
  indexInfo?: string;
  indexError?: string;
}

export interface BatchContext {
  root: string;
  gitDir: string;
  hexLen: number;
  author: Identity;
  /** Paths believed tracked (a hint: a wrong guess costs an extra check-ignore, never a wrong commit). */
  tracked: ReadonlySet<string>;
  env: GitEnv;
  git: (args: string[], opts?: GitRunOptions) => Promise<GitOutput | GitFailure>;
  /** Told why a batch fell back when the reason is not an expected one (a detached HEAD, a merge in progress). */
  warn: (message: string) => void;
}

interface Blob {
  mode: string;
  sha: string;
}

// While a person's merge, cherry-pick, revert or rebase is in progress the index is theirs; `git commit` decides.
const IN_PROGRESS = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge', 'rebase-apply', 'sequencer'];

/** C-style quoting as fast-import reads it: the path is always a quoted string, whatever bytes it holds. */
export function quotePath(p: string): string {
  const body = p.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\\' || c === '"') return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    return `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
  });
  return `"${body}"`;
}

function identLine(who: Identity, when: Date): string {
  const clean = (s: string): string => s.replace(/[<>\n]/g, '').trim();
  const off = -when.getTimezoneOffset();
  const tz = `${off >= 0 ? '+' : '-'}${String(Math.floor(Math.abs(off) / 60)).padStart(2, '0')}${String(Math.abs(off) % 60).padStart(2, '0')}`;
  return `${clean(who.name)} <${clean(who.email)}> ${Math.floor(when.getTime() / 1000)} ${tz}`;
}

/** A fast-import process we talk to: commands in, `ls`/`get-mark` answers out, one line each. */
class FastImport {
  readonly #lines: string[] = [];
  readonly #waiting: ((line: string | null) => void)[] = [];
  #buf = '';
  #closed = false;
  #stderr = '';
  readonly #child;
  readonly exited: Promise<number | null>;

  constructor(root: string, env: GitEnv) {
    this.#child = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: root, env: cleanGitEnv(env), stdio: 'pipe' });
    this.#child.stdin.on('error', () => {}); // it died: `exited` and stderr tell why
    this.#child.stdout.setEncoding('utf8');
    this.#child.stdout.on('data', (s: string) => {
      this.#buf += s;
      let i;
      while ((i = this.#buf.indexOf('\n')) >= 0) {
        const line = this.#buf.slice(0, i);
        this.#buf = this.#buf.slice(i + 1);
        const w = this.#waiting.shift();
        if (w) w(line);
        else this.#lines.push(line);
      }
    });
    this.#child.stderr.on('data', (b: Buffer) => (this.#stderr += b.toString('utf8')));
    this.exited = new Promise((resolve) => {
      this.#child.on('error', () => resolve(null));
      this.#child.on('close', (code) => {
        this.#closed = true;
        for (const w of this.#waiting.splice(0)) w(null);
        resolve(code);
      });
    });
  }

  get stderr(): string {
    return this.#stderr.trim();
  }

  send(text: string): void {
    this.#child.stdin.write(text);
  }

  /** The next answer line, or null if fast-import ended first. */
  next(): Promise<string | null> {
    const l = this.#lines.shift();
    if (l !== undefined) return Promise.resolve(l);
    if (this.#closed) return Promise.resolve(null);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  async finish(): Promise<number | null> {
    this.#child.stdin.end('done\n');
    return this.exited;
  }

  kill(): void {
    this.#child.kill();
  }
}

/**
 * Commits `items` in order, one commit each, through one fast-import. Returns an outcome per item, or null when the
 * batch cannot be made safely (HEAD detached or moved meanwhile, a merge in progress, a file vanished, a symlink):
 * then nothing was changed and the caller commits the items one by one with `git commit --only`.
 */
export async function commitBatch(ctx: BatchContext, items: BatchItem[]): Promise<BatchResult | null> {
  if (IN_PROGRESS.some((f) => existsSync(path.join(ctx.gitDir, f)))) return null;

  // What each path is now: a regular file (with its exec bit) or gone.
  const all = [...new Set(items.flatMap((i) => i.paths))];
  const onDisk = new Map<string, { exec: boolean } | null>();
  for (const p of all) {
    try {
      const st = await lstat(path.join(ctx.root, p));
      if (!st.isFile()) return null; // symlinks and folders: let `git commit` apply its own rules
      onDisk.set(p, { exec: (st.mode & 0o111) !== 0 });
    } catch {
      if (!ctx.tracked.has(p)) return null; // gone and never known: the one-by-one path asks git about it
      onDisk.set(p, null);
    }
  }

  const head = await ctx.git(['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD']);
  if (!head.ok) return null;
  const [headSha = '', branch = ''] = head.stdout.split('\n');
  if (!branch.startsWith('refs/heads/')) return null; // detached HEAD: no branch to move

  // New notes must not be ones the person's .gitignore keeps out (what `git add` would refuse).
  const fresh = all.filter((p) => onDisk.get(p) && !ctx.tracked.has(p));
  const ignored = new Set<string>();
  if (fresh.length > 0) {
    // check-ignore refuses literal-pathspec mode; a `./` prefix keeps a name like `:(glob)x.md` from reading as magic.
    const ci = await ctx.git(['check-ignore', '-z', '--stdin'], { input: fresh.map((p) => `./${p}\0`).join(''), env: { GIT_LITERAL_PATHSPECS: '0' } });
    if (!ci.ok && ci.code !== 1) return null;
    if (ci.ok) for (const p of ci.stdout.split('\0')) if (p !== '') ignored.add(p.replace(/^\.\//, ''));
  }
  const outcomes: (BatchOutcome | undefined)[] = items.map((i) => {
    const bad = i.paths.filter((p) => ignored.has(p));
    return bad.length > 0
      ? fail('ignored', `${bad.join(', ')} is ignored by the vault's .gitignore; the note was written but cannot be committed — move it or change .gitignore`)
      : undefined;
  });

  // Blobs exactly as `git add` would make them (clean filters, eol conversion): hash-object reads the files itself.
  const toHash = all.filter((p) => onDisk.get(p) && !ignored.has(p));
  const blobs = new Map<string, Blob>();
  if (toHash.length > 0) {
    const h = await ctx.git(['hash-object', '-w', '--', ...toHash]);
    if (!h.ok) return null; // a file vanished between lstat and hashing: the one-by-one path reports it
    const shas = h.stdout.trim().split('\n');
    if (shas.length !== toHash.length) {
      ctx.warn(`git hash-object gave ${shas.length} ids for ${toHash.length} files`);
      return null;
    }
    toHash.forEach((p, i) => blobs.set(p, { mode: onDisk.get(p)!.exec ? '100755' : '100644', sha: shas[i]! }));
  }

  const fi = new FastImport(ctx.root, ctx.env);
  try {
    // What HEAD holds for each path, asked all at once.
    const live = all.filter((p) => !ignored.has(p));
    fi.send(live.map((p) => `ls ${headSha} ${quotePath(p)}\n`).join(''));
    const state = new Map<string, Blob | null>();
    for (const p of live) {
      const line = await fi.next();
      if (line === null) {
        ctx.warn(`git fast-import ended early: ${fi.stderr}`);
        return null;
      }
      const m = /^(\d{6}) (\w+) ([0-9a-f]+)\t/.exec(line);
      if (!m) {
        state.set(p, null); // "missing <path>"
        continue;
      }
      if (m[2] !== 'blob') return null; // a folder or submodule where a note should be
      state.set(p, { mode: m[1]!, sha: m[3]! });
    }

    const when = new Date();
    const marks: { item: number; mark: number; changed: string[] }[] = [];
    items.forEach((item, i) => {
      if (outcomes[i]) return;
      const lines: string[] = [];
      const changed: string[] = [];
      for (const p of item.paths) {
        const want = onDisk.get(p) ? blobs.get(p)! : null;
        const have = state.get(p) ?? null;
        // A note already in HEAD keeps its mode (core.fileMode=false filesystems report no exec bit).
        const desired = want && have ? { ...want, mode: have.mode } : want;
        if (desired === null ? have === null : have !== null && have.sha === desired.sha && have.mode === desired.mode) continue;
        lines.push(desired === null ? `D ${quotePath(p)}\n` : `M ${desired.mode} ${desired.sha} ${quotePath(p)}\n`);
        state.set(p, desired);
        changed.push(p);
      }
      if (lines.length === 0) {
        outcomes[i] = fail('nothing_to_commit', `${item.paths.join(', ')}: the work tree matches the last commit; nothing to record`);
        return;
      }
      const mark = marks.length + 1;
      const msg = Buffer.from(renderMessage(item.msg), 'utf8');
      fi.send(
        `commit ${branch}\nmark :${mark}\nauthor ${identLine(ctx.author, when)}\ncommitter ${identLine(ctx.author, when)}\n` +
          `data ${msg.length}\n${msg.toString('utf8')}\n${mark === 1 ? `from ${headSha}\n` : ''}${lines.join('')}\n`,
      );
      marks.push({ item: i, mark, changed });
    });

    fi.send(marks.map((m) => `get-mark :${m.mark}\n`).join(''));
    for (const m of marks) {
      const sha = await fi.next();
      if (sha === null || !new RegExp(`^[0-9a-f]{${ctx.hexLen}}$`).test(sha)) {
        ctx.warn(`git fast-import gave no commit id (${sha ?? 'ended'}): ${fi.stderr}`);
        return null;
      }
      outcomes[m.item] = { ok: true, sha, committed: m.changed };
    }
    // The branch moves only now, and only if nobody moved it since we read it (else: "does not contain", exit 1).
    const code = await fi.finish();
    if (code !== 0) {
      ctx.warn(`git fast-import exited ${code ?? 'on a signal'}; committing one by one instead: ${fi.stderr}`);
      return null;
    }

    // The index gets the very blobs committed, so `git status` shows these notes clean (stat data is refreshed by
    // the next status or commit).
    const done = outcomes.map((o) => o!);
    const touched = [...new Set(marks.flatMap((m) => m.changed))];
    if (touched.length === 0) return { outcomes: done };
    const zero = '0'.repeat(ctx.hexLen);
    const indexInfo = touched.map((p) => {
      const b = state.get(p);
      return b ? `${b.mode} ${b.sha}\t${p}\0` : `0 ${zero}\t${p}\0`;
    }).join('');
    const u = await ctx.git(['update-index', '-z', '--index-info'], { input: indexInfo });
    return u.ok ? { outcomes: done } : { outcomes: done, indexInfo, indexError: u.message };
  } finally {
    fi.kill();
  }
}
