// An agent commit made with git's plumbing over long-lived pipes (./git-pipe.ts) instead of a `git add` + `git commit`
// per write: blobs from the work tree (`hash-object --stdin-paths`, filters applied as `git add` would), trees from
// HEAD's with only the changed entries replaced (read with `cat-file --batch`) and the commit object written as loose
// objects by this process (loose-objects.ts), and HEAD read and moved only if no one moved it meanwhile, by this
// process in a `files` ref store (ref-files.ts; else `cat-file` and an `update-ref --stdin` transaction). git's index is brought in line before HEAD moves, by this process (index-file.ts; `update-index
// --index-info` for an index it does not handle): if a lock stops it, nothing moves and the batch fails as
// `git_failed`, as `git commit` did. Anything unusual (a symlink, a submodule, a detached HEAD) answers `fallback`,
// and GitRepo commits with the porcelain as before.
import { LOCK_BUSY, retryWhileLocked } from './lock-retry.js';
import { spawn } from 'node:child_process';
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { fail, type Failure } from '../../messages/common.js';
import { renderMessage, type CommitMessage, type Identity } from './git-message.js';
import { fields, GitPipe, lines, type Parser } from './git-pipe.js';
import { updateIndex } from './index-file.js';
import { LooseObjects, treeBody } from './loose-objects.js';
import { parseLogAll, RefFiles, type RefLogSettings } from './ref-files.js';

type Entry = { mode: string; sha: string };
/** A tree as git stores it: name → entry. */
type Tree = Map<string, Entry>;

/** A change to one path: its new blob, or null for a removal. */
type Change = { path: string; entry: Entry | null };

export type FastResult = { ok: true; sha: string; changes: Change[] } | Failure<'nothing_to_commit' | 'ignored' | 'git_failed'> | Fallback;

/** One commit of a batch: what to commit and its message. */
export interface FastItem {
  paths: string[];
  msg: CommitMessage;
}

/** A commit built on `parent` (tree `tree`) but not yet on any ref. */
type Built = { ok: true; sha: string; tree: string; changes: Change[] };

type Fallback = { ok: false; reason: 'fallback'; message: string };
const fallback = (message: string): Fallback => ({ ok: false, reason: 'fallback', message });

/** `git commit --cleanup=whitespace`: trailing blanks and runs of empty lines go, one newline at the end. */
export function cleanupWhitespace(text: string): string {
  const out: string[] = [];
  for (const l of text.split('\n').map((s) => s.replace(/\s+$/, ''))) {
    if (l === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(l);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return `${out.join('\n')}\n`;
}

function tz(d: Date): string {
  const off = -d.getTimezoneOffset();
  const a = Math.abs(off);
  return `${off < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}${String(a % 60).padStart(2, '0')}`;
}

/** `cat-file --batch`: `<sha> <type> <size>\n<content>\n`, or `<name> missing\n`. */
const object: Parser<{ sha: string; type: string; body: Buffer } | null> = (buf) => {
  const nl = buf.indexOf(10);
  if (nl < 0) return null;
  const head = buf.subarray(0, nl).toString('utf8').split(' ');
  if (head.length !== 3) return { value: null, used: nl + 1 };
  const size = Number(head[2]);
  if (buf.length < nl + 1 + size + 1) return null;
  return { value: { sha: head[0]!, type: head[1]!, body: buf.subarray(nl + 1, nl + 1 + size) }, used: nl + 1 + size + 1 };
};

function run(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString('utf8');
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString('utf8');
    });
    child.on('error', (e) => resolve({ code: null, stdout, stderr: e.message }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

const REFLOG_MESSAGE = 'memvault: agent commit';

const TYPE_OF: Record<string, string> = { '100644': 'blob', '100755': 'blob', '120000': 'blob', '40000': 'tree', '160000': 'commit' };

/** Where the repository is and how to run git there. */
export interface FastRepo {
  root: string;
  gitDir: string;
  commonDir: string;
  objectsDir: string;
  indexFile: string;
  hexLen: number;
  env: NodeJS.ProcessEnv;
}

export class FastCommitter {
  readonly root: string;
  readonly #cat: GitPipe;
  readonly #blobs: GitPipe;
  readonly #refs: GitPipe;
  readonly #ignore: GitPipe;
  readonly #pipes: GitPipe[];
  readonly #objects: LooseObjects;
  readonly #indexFile: string;
  readonly #hexLen: number;
  readonly #rawLen: number;
  readonly #env: NodeJS.ProcessEnv;
  // Trees by id (immutable, so never stale); emptied when large.
  readonly #trees = new Map<string, Tree>();
  readonly #refFiles: RefFiles;
  /** The reflog settings as of the config file's mtime; null: git's own update-ref is used. */
  #refLog: { mtimeMs: number; settings: RefLogSettings | null } | null = null;
  /** The commit this process last put on HEAD and its tree: the next batch needs no `cat-file` for it. */
  #last: { sha: string; tree: string } | null = null;

  constructor(repo: FastRepo) {
    const { root, env, hexLen } = repo;
    this.root = root;
    this.#hexLen = hexLen;
    this.#rawLen = hexLen / 2;
    this.#env = env;
    this.#indexFile = repo.indexFile;
    this.#objects = new LooseObjects(repo.objectsDir, hexLen === 64 ? 'sha256' : 'sha1');
    this.#refFiles = new RefFiles(repo.gitDir, repo.commonDir, hexLen);
    const pipe = (args: string[]): GitPipe => new GitPipe(root, args, env);
    this.#cat = pipe(['cat-file', '--batch']);
    this.#blobs = pipe(['hash-object', '-w', '--stdin-paths']);
    this.#refs = pipe(['update-ref', '-m', REFLOG_MESSAGE, '--stdin']);
    this.#ignore = pipe(['check-ignore', '--stdin', '-z', '-v', '-n']);
    this.#pipes = [this.#cat, this.#blobs, this.#refs, this.#ignore];
  }

  /** The running git processes' ids. */
  pids(): number[] {
    return this.#pipes.flatMap((p) => (p.pid === undefined ? [] : [p.pid]));
  }

  close(): void {
    for (const p of this.#pipes) p.close();
  }

  /**
   * Commits each item's `paths` as they are in the work tree, one commit per item, each on the one before, on top of
   * HEAD, as `who`; then moves HEAD once, only if no one moved it meanwhile (else git dies and this rejects, nothing
   * moved). An item that answers `fallback` ends the batch: it and the items after it answer `fallback`.
   */
  async commitBatch(items: FastItem[], who: Identity): Promise<FastResult[]> {
    if (/[<>\n]/.test(who.name + who.email)) return items.map(() => fallback('an identity git would rewrite'));
    const refLog = await this.#refLogSettings();
    const read = refLog === null ? null : this.#refFiles.head();
    const own = read?.kind === 'ok' ? read : null;
    let head: { sha: string; tree: string };
    if (own !== null && this.#last?.sha === own.sha) head = this.#last;
    else {
      const o = await this.#cat.request(`${own?.sha ?? 'HEAD'}\n`, object);
      if (o === null || o.type !== 'commit') return items.map(() => fallback('HEAD is not a commit'));
      const tree = /^tree ([0-9a-f]+)$/m.exec(o.body.toString('utf8'))?.[1];
      if (tree === undefined) return items.map(() => fallback('HEAD has no tree'));
      head = { sha: o.sha, tree };
    }
    const treeSha = head.tree;
    const out: FastResult[] = [];
    let parent = head.sha;
    let tree = treeSha;
    for (const item of items) {
      const r = out.some((o) => !o.ok && o.reason === 'fallback')
        ? fallback('an earlier commit of the batch fell back')
        : await this.#build(item, parent, tree, who);
      if (r.ok) {
        parent = r.sha;
        tree = r.tree;
        out.push({ ok: true, sha: r.sha, changes: r.changes });
      } else out.push(r);
    }
    if (parent === head.sha) return out;
    const zero = '0'.repeat(this.#rawLen * 2);
    const index = await this.#updateIndex(
      out.flatMap((o) => (o.ok ? o.changes : [])),
      zero,
    );
    if (index !== null) return out.map((o) => (o.ok ? fail('git_failed', index) : o));
    if (own !== null && refLog !== null) await this.#moveRef(own.ref, parent, head.sha, refLog);
    else await this.#refs.request(`start\nupdate HEAD ${parent} ${head.sha}\nprepare\ncommit\n`, lines(3));
    this.#last = { sha: parent, tree };
    return out;
  }

  /**
   * HEAD's branch moved by this process (ref-files.ts), retried while another git holds its lock for a moment.
   * Throws as `update-ref` failing did (the batch then goes through `git commit`): nothing moved.
   */
  async #moveRef(ref: string, sha: string, old: string, log: RefLogSettings): Promise<void> {
    const r = await retryWhileLocked(
      () => this.#refFiles.update(ref, sha, old, REFLOG_MESSAGE, log),
      (r) => r.kind === 'busy',
    );
    if (r.kind !== 'done') throw new Error(`fatal: ${r.message}`);
  }

  /**
   * What reflog lines need (core.logAllRefUpdates, the committer identity), read again when the config file changes;
   * null when refs are not plain files here or `git var` fails: update-ref then moves HEAD.
   */
  async #refLogSettings(): Promise<RefLogSettings | null> {
    const mtimeMs = statSync(`${this.#refFiles.commonDir}/config`, { throwIfNoEntry: false })?.mtimeMs ?? -1;
    if (this.#refLog?.mtimeMs === mtimeMs) return this.#refLog.settings;
    let settings: RefLogSettings | null = null;
    if (this.#refFiles.usable()) {
      // `git var -l`: the config, then the identity update-ref would log (guessed from the system when unset, as git does)
      const r = await run(this.root, ['var', '-l'], this.#env, '');
      const lines = r.stdout.split('\n');
      const who = /^GIT_COMMITTER_IDENT=(.*>) \d+ [+-]\d{4}$/.exec(lines.find((l) => l.startsWith('GIT_COMMITTER_IDENT=')) ?? '')?.[1];
      const logAll = lines.filter((l) => l === 'core.logallrefupdates' || l.startsWith('core.logallrefupdates=')).pop();
      if (r.code === 0 && who !== undefined)
        settings = { ident: who, logAll: parseLogAll(logAll === undefined ? null : (logAll.split('=')[1] ?? 'true')) };
    }
    this.#refLog = { mtimeMs, settings };
    return settings;
  }

  /**
   * Records `changes` in git's index: by this process (index-file.ts), or by `git update-index` for an index that one
   * does not handle. Retried while another git holds the lock for a moment; null when done, else why not.
   */
  async #updateIndex(changes: Change[], zero: string): Promise<string | null> {
    const r = await retryWhileLocked(
      () => updateIndex(this.#indexFile, changes, this.#hexLen),
      (r) => r.kind === 'busy',
    );
    if (r.kind === 'done') return null;
    if (r.kind === 'unsupported') return this.#spawnUpdateIndex(changes, zero);
    return `git's index could not be updated: ${r.message}`;
  }

  /** `git update-index --index-info` (one process per batch: it holds index.lock until it ends). */
  async #spawnUpdateIndex(changes: Change[], zero: string): Promise<string | null> {
    const input = changes
      .map((c) => (c.entry === null ? `0 ${zero}\t${c.path}\0` : `${c.entry.mode} ${c.entry.sha}\t${c.path}\0`))
      .join('');
    const r = await retryWhileLocked(
      () => run(this.root, ['update-index', '-z', '--index-info'], this.#env, input),
      (r) => r.code !== 0 && LOCK_BUSY.test(r.stderr),
    );
    if (r.code === 0) return null;
    return `git update-index -z --index-info failed (exit ${r.code ?? 'signal'}): ${r.stderr.trim() || 'no output'}`;
  }

  async #build(item: FastItem, parent: string, treeSha: string, who: Identity): Promise<Built | Exclude<FastResult, { ok: true }>> {
    const { paths, msg } = item;
    const changes: Change[] = [];
    const fresh: string[] = [];
    for (const p of paths) {
      if (p.includes('\n') || p.startsWith('"')) return fallback('a path hash-object would unquote');
      let st: ReturnType<typeof lstatSync> | null = null;
      try {
        st = lstatSync(path.join(this.root, p), { throwIfNoEntry: false }) ?? null; // in place: cheaper than a pool hop
      } catch {
        st = null;
      }
      if (st !== null && !st.isFile()) return fallback(`${p} is not a regular file`);
      const before = await this.#lookup(treeSha, p);
      if (before === 'blocked') return fallback(`${p} crosses a non-folder in HEAD`);
      if (st === null) {
        if (before !== null) changes.push({ path: p, entry: null });
        continue;
      }
      if (before === null) fresh.push(p);
      const [sha] = await this.#blobs.request(`${p}\n`, lines(1));
      changes.push({ path: p, entry: { mode: st.mode & 0o100 ? '100755' : '100644', sha: sha! } });
    }
    for (const p of fresh) {
      const [source] = await this.#ignore.request(`${p}\0`, fields(4));
      if (source !== '')
        return fail(
          'ignored',
          `${p} is ignored by the vault's .gitignore; the note was written but cannot be committed — move it or change .gitignore`,
        );
    }
    if (changes.length === 0)
      return fail('nothing_to_commit', `${paths.join(', ')}: not in the work tree and not tracked by git; nothing to record`);
    const newTree = await this.#rewrite(treeSha, '', changes);
    if (newTree === 'blocked') return fallback('a path crosses a non-folder');
    if (newTree === treeSha || newTree === null)
      return fail('nothing_to_commit', `${paths.join(', ')}: the work tree matches the last commit; nothing to record`);

    const now = new Date();
    const stamp = `${Math.floor(now.getTime() / 1000)} ${tz(now)}`;
    const person = `${who.name} <${who.email}> ${stamp}`;
    const text = `tree ${newTree}\nparent ${parent}\nauthor ${person}\ncommitter ${person}\n\n${cleanupWhitespace(renderMessage(msg))}`;
    const sha = this.#objects.write('commit', Buffer.from(text, 'utf8'));
    return { ok: true, sha, tree: newTree, changes };
  }

  async #tree(sha: string): Promise<Tree> {
    const known = this.#trees.get(sha);
    if (known) return new Map(known);
    const o = await this.#cat.request(`${sha}\n`, object);
    if (o === null || o.type !== 'tree') throw new Error(`tree ${sha} could not be read`);
    const t: Tree = new Map();
    const b = o.body;
    for (let at = 0; at < b.length; ) {
      const sp = b.indexOf(32, at);
      const z = b.indexOf(0, sp);
      const mode = b.subarray(at, sp).toString('latin1');
      const name = b.subarray(sp + 1, z).toString('utf8');
      t.set(name, { mode, sha: b.subarray(z + 1, z + 1 + this.#rawLen).toString('hex') });
      at = z + 1 + this.#rawLen;
    }
    this.#remember(sha, t);
    return new Map(t);
  }

  #remember(sha: string, t: Tree): void {
    if (this.#trees.size >= 2000) this.#trees.clear();
    this.#trees.set(sha, new Map(t));
  }

  /** The entry at `p` in tree `root`, null if absent, blocked if a parent is not a folder or `p` itself is one. */
  async #lookup(root: string, p: string): Promise<Entry | null | 'blocked'> {
    const parts = p.split('/');
    let tree = await this.#tree(root);
    for (let i = 0; i < parts.length - 1; i++) {
      const e = tree.get(parts[i]!);
      if (e === undefined) return null;
      if (e.mode !== '40000') return 'blocked';
      tree = await this.#tree(e.sha);
    }
    const e = tree.get(parts[parts.length - 1]!) ?? null;
    return e !== null && TYPE_OF[e.mode] !== 'blob' ? 'blocked' : e;
  }

  /** Writes the tree `sha` (at folder `prefix`) with `changes` applied; null when it ends up empty. */
  async #rewrite(sha: string | null, prefix: string, changes: Change[]): Promise<string | null | 'blocked'> {
    const tree: Tree = sha === null ? new Map() : await this.#tree(sha);
    const sub = new Map<string, Change[]>();
    for (const c of changes) {
      const rest = c.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) {
        if (c.entry === null) tree.delete(rest);
        else tree.set(rest, c.entry);
      } else {
        const dir = rest.slice(0, slash);
        sub.set(dir, [...(sub.get(dir) ?? []), c]);
      }
    }
    for (const [dir, cs] of sub) {
      const was = tree.get(dir);
      if (was !== undefined && was.mode !== '40000') return 'blocked';
      const t = await this.#rewrite(was?.sha ?? null, `${prefix}${dir}/`, cs);
      if (t === 'blocked') return t;
      if (t === null) tree.delete(dir);
      else tree.set(dir, { mode: '40000', sha: t });
    }
    if (tree.size === 0 && prefix !== '') return null;
    const id = this.#objects.write('tree', treeBody(tree));
    this.#remember(id, tree); // the next commit starts from this tree: no need to read it back
    return id;
  }
}
