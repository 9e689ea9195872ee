// The git writer's intent journal: the agent mutation being applied, made durable before its file changes, so a
// crash between the file change and its commit is recorded at the next start as that agent's — which it can undo —
// rather than as the person's. Writes' file changes are serialised but their commits overlap (queued commits are made
// in one batch), so it holds every intent whose commit is not made yet, in the order their files changed.
import { closeSync, fdatasync, openSync, renameSync, writeFileSync } from 'node:fs';
import { lstat, mkdir, readFile, truncate } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { assertNever } from '../../messages/common.js';
import type { Caller, VaultOp } from '../../messages/vault-ops.js';
import type { CommitMessage, CommitOp } from './git-message.js';
import type { GitRepo } from './git-repo.js';
import { sha256Hex } from '../../messages/hash.js';

export interface Intent {
  op: VaultOp['op'];
  /**
   * The op its commit records when not `op` (a remember or a forget is a write of the log): an owed or recovered
   * commit recorded as `write` was one `vault_undo_last` reverts, taking a remembered fact out of the log.
   */
  commitOp?: CommitOp;
  agent: string;
  reason?: string;
  /** The commit's `Memvault-Skill`, `Memvault-Run` and `Memvault-Batch` trailers (`memvault undo --run` finds them). */
  skill?: string;
  run?: string;
  batch?: string;
  /** The paths the op changes (a move: [from, to]). */
  paths: string[];
  /** Content hashes the written note (the move's target) may have once applied; empty for a delete. */
  hashes: string[];
}

async function fileHash(abs: string): Promise<string | null> {
  try {
    return sha256Hex(await readFile(abs));
  } catch {
    return null;
  }
}

/** The intent for `op`, before it is applied: the hashes the target may end with (sent content, or the moved note's). */
export async function intentFor(root: string, op: VaultOp, caller: Caller, commitOp?: CommitOp): Promise<Intent> {
  const nfc = (p: string): string => p.normalize('NFC'); // as the vault writer resolves it
  const base = {
    op: op.op,
    ...(commitOp !== undefined && commitOp !== op.op ? { commitOp } : {}),
    agent: caller.agent,
    ...(caller.reason !== undefined ? { reason: caller.reason } : {}),
    ...(caller.skill !== undefined ? { skill: caller.skill } : {}),
    ...(caller.run !== undefined ? { run: caller.run } : {}),
    ...(caller.batch !== undefined ? { batch: caller.batch } : {}),
  };
  switch (op.op) {
    case 'write':
      return { ...base, paths: [nfc(op.path)], hashes: [sha256Hex(Buffer.from(op.content, 'utf8'))] };
    case 'delete':
      return { ...base, paths: [nfc(op.path)], hashes: [] };
    case 'move': {
      const h = await fileHash(path.join(root, op.from));
      return { ...base, paths: [nfc(op.from), nfc(op.to)], hashes: h === null ? [] : [h] };
    }
    default:
      return assertNever(op);
  }
}

/**
 * Whether the work tree shows exactly `intent` applied: a write's note (a move's target) holds one of its hashes, a
 * delete's note (a move's source) is gone. Anything else (a person edited the note meanwhile) is not the agent's.
 */
export async function intentApplied(root: string, intent: Intent): Promise<boolean> {
  const target = intent.op === 'move' ? intent.paths[1] : intent.paths[0];
  const gone = intent.op === 'write' ? undefined : intent.paths[0];
  if (gone !== undefined) {
    try {
      await lstat(path.join(root, gone));
      return false;
    } catch {
      /* gone, as the op leaves it */
    }
  }
  if (intent.op === 'delete') return true;
  const h = target === undefined ? null : await fileHash(path.join(root, target));
  return h !== null && intent.hashes.includes(h);
}

/** What the journal holds: the op being applied now, and agent writes on disk that git refused to commit (owed). */
export interface JournalState {
  /** The oldest op being applied (as earlier versions wrote it: one at most). */
  intent: Intent | null;
  owed: Intent[];
  /** Ops being applied after `intent`, oldest first. */
  intents?: Intent[];
}

const isIntent = (i: unknown): i is Intent =>
  typeof i === 'object' &&
  i !== null &&
  Array.isArray((i as Intent).paths) &&
  Array.isArray((i as Intent).hashes) &&
  typeof (i as Intent).agent === 'string';

export class IntentJournal {
  readonly #file: string;
  #owed: Intent[] = [];
  #inflight: Intent[] = [];

  constructor(file: string) {
    this.#file = file;
  }

  /** Agent writes on disk whose commit git refused, oldest first: committed as their agents before anything else. */
  get owed(): readonly Intent[] {
    return this.#owed;
  }

  /** What a run that stopped left: its unfinished op and its owed writes; null when nothing. */
  async read(): Promise<JournalState | null> {
    await mkdir(path.dirname(this.#file), { recursive: true }).catch(() => undefined);
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch {
      return null;
    }
    if (text.trim() === '') return null;
    let j: unknown;
    try {
      j = JSON.parse(text);
    } catch {
      return null; // torn by the crash itself: the op had not started changing files (#write syncs first)
    }
    if (isIntent(j)) return { intent: j, owed: [] }; // a single intent, as earlier versions wrote it
    const st = j as Partial<JournalState> | null;
    const intent = isIntent(st?.intent) ? st.intent : null;
    const owed = Array.isArray(st?.owed) ? st.owed.filter(isIntent) : [];
    const intents = Array.isArray(st?.intents) ? st.intents.filter(isIntent) : [];
    return intent === null && owed.length === 0 ? null : { intent, owed, intents };
  }

  /**
   * Makes `intent` durable (fdatasync) before the caller changes any file. Resolves with why it could not (the data
   * dir full or read-only), or null: the write goes ahead either way — a crash then leaves it to the person's commit.
   */
  async record(intent: Intent, replaces?: Intent): Promise<string | null> {
    const i = replaces === undefined ? -1 : this.#inflight.indexOf(replaces);
    if (i >= 0) this.#inflight[i] = intent;
    else this.#inflight.push(intent);
    const problem = await this.#flush();
    if (problem !== null) await this.clear(intent); // a half-written intent must not be read back
    return problem;
  }

  #state(): JournalState {
    const [intent = null, ...intents] = this.#inflight;
    return { intent, owed: this.#owed, intents };
  }

  /**
   * Forgets `intent` once its commit is made, owed or refused. Not synced: if a crash loses this, the next start finds
   * the intent's notes already committed — clean, so nothing is attributed twice.
   */
  async clear(intent?: Intent): Promise<void> {
    if (intent !== undefined) this.#inflight = this.#inflight.filter((i) => i !== intent);
    // Others still in flight: the file is left as it is (rewriting it unsynced could tear their durable intents); the
    // cleared one goes at the next write of the file, and read back before that it is skipped (its notes are clean).
    if (this.#inflight.length > 0) return;
    if (this.#owed.length > 0) await this.#queue(() => this.#write(this.#state(), false));
    else await this.#queue(() => truncate(this.#file, 0).catch(() => undefined));
  }

  /** The write `intent` is on disk but git refused its commit: kept (durably) until paid, across restarts too. */
  async owe(intent: Intent): Promise<void> {
    this.#owed.push(intent);
    await this.#flush();
  }

  /** The oldest owed write is committed. */
  async paid(): Promise<void> {
    this.#owed.shift();
    await this.clear();
  }

  /** Forgets everything (at start, once recovered). */
  async reset(): Promise<void> {
    this.#owed = [];
    this.#inflight = [];
    await this.#queue(() => truncate(this.#file, 0).catch(() => undefined));
  }

  // The file is written by one operation at a time (two at once could leave one's tail after the other's text).
  #tail: Promise<unknown> = Promise.resolve();
  #queued: Promise<string | null> | null = null;

  #queue<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.#tail.then(fn);
    this.#tail = p.catch(() => {});
    return p;
  }

  /**
   * Group commit: writes and syncs the state as it is when the write starts, so one fsync covers every change made
   * while the previous write was under way; a caller whose change is already in a queued write shares it.
   */
  #flush(): Promise<string | null> {
    if (this.#queued) return this.#queued;
    const p = this.#queue(() => {
      this.#queued = null;
      return this.#write(this.#state());
    });
    this.#queued = p;
    return p;
  }

  /**
   * Replaces the file whole: written beside it and renamed over it, so a kill at any instant leaves either the old
   * state or the new one. Opening the file itself with 'w' emptied it first: a kill -9 between that and the write
   * lost every other write's durable intent while their notes were on disk (the crash cycles saw one recorded as
   * the person's).
   */
  async #write(state: JournalState, sync = true): Promise<string | null> {
    const tmp = `${this.#file}.next`;
    try {
      // small file calls in place, only the fdatasync in the thread pool (a hop costs more than such a call)
      const fd = openSync(tmp, 'w');
      try {
        writeFileSync(fd, JSON.stringify(state));
        if (sync) await datasync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.#file);
      return null;
    } catch (err) {
      return `${(err as NodeJS.ErrnoException).code ?? 'error'}: ${(err as Error).message}`;
    }
  }
}

const datasync = promisify(fdatasync);

/** The commit an intent records: its op (a remember's, not the write it made) and its trailers. */
export function intentCommit(i: Intent, note?: string): CommitMessage {
  return {
    op: i.commitOp ?? i.op,
    paths: i.paths,
    agent: i.agent,
    ...(i.reason !== undefined ? { reason: i.reason } : {}),
    ...(i.skill !== undefined ? { skill: i.skill } : {}),
    ...(i.run !== undefined ? { run: i.run } : {}),
    ...(i.batch !== undefined ? { batch: i.batch } : {}),
    ...(note !== undefined ? { note } : {}),
  };
}

export type Recovered = { sha: string; agent: string; paths: string[] } | { skipped: string; agent: string };

/**
 * At start, before people's edits are committed: agent writes the last run left on disk but not in git — owed ones
 * (git refused their commit) and one cut off between its file change and its commit — whose notes still hold
 * exactly what the agent wrote are committed as that agent (with trailers, so they can be undone), oldest first.
 * Whatever else is dirty stays for the person's commit. Clears the journal.
 */
export async function recoverIntents(repo: GitRepo, journal: IntentJournal): Promise<Recovered[]> {
  const left = await journal.read();
  if (left === null) return [];
  const out: Recovered[] = [];
  const stillOwed: Intent[] = [];
  try {
    const todo = [
      ...left.owed.map((i) => ({ i, note: 'Recorded at start: git refused this commit before memvault stopped.' })),
      ...[...(left.intent ? [left.intent] : []), ...(left.intents ?? [])].map((i) => ({
        i,
        note: 'Recorded at start: memvault stopped after writing this change and before committing it.',
      })),
    ];
    for (const { i: intent, note } of todo) {
      const dirty = new Set(await repo.dirtyPaths());
      const paths = intent.paths.filter((p) => dirty.has(p));
      if (paths.length === 0) out.push({ skipped: 'its notes were committed before the stop', agent: intent.agent });
      else if (!(await intentApplied(repo.root, intent)))
        out.push({ skipped: 'the notes no longer hold what the agent wrote', agent: intent.agent });
      else {
        const c = await repo.commit(paths, intentCommit(intent, note));
        if (c.ok) out.push({ sha: c.sha, agent: intent.agent, paths });
        else {
          out.push({ skipped: c.message, agent: intent.agent });
          // git still refuses (a stale lock): kept as owed, paid as the agent's once git works, never the person's
          if (c.reason !== 'nothing_to_commit') stillOwed.push({ ...intent, paths });
        }
      }
    }
    return out;
  } finally {
    await journal.reset();
    for (const i of stillOwed) await journal.owe(i);
  }
}
