// The git writer's intent journal: the agent mutation being applied, made durable before its file changes, so a
// crash between the file change and its commit is recorded at the next start as that agent's — which it can undo —
// rather than as the person's. Mutations are serialised, so the journal holds at most one intent.
import { createHash } from 'node:crypto';
import { lstat, mkdir, open, readFile, truncate } from 'node:fs/promises';
import path from 'node:path';
import { assertNever } from '../../messages/common.js';
import type { VaultOp } from '../../messages/vault-ops.js';
import type { GitRepo } from './git-repo.js';

export interface Intent {
  op: VaultOp['op'];
  agent: string;
  reason?: string;
  /** The paths the op changes (a move: [from, to]). */
  paths: string[];
  /** Content hashes the written note (the move's target) may have once applied; empty for a delete. */
  hashes: string[];
}

const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

async function fileHash(abs: string): Promise<string | null> {
  try {
    return sha256(await readFile(abs));
  } catch {
    return null;
  }
}

/** The intent for `op`, before it is applied: the hashes the target may end with (sent content, or the moved note's). */
export async function intentFor(root: string, op: VaultOp, caller: { agent: string; reason?: string }): Promise<Intent> {
  const nfc = (p: string): string => p.normalize('NFC'); // as the vault writer resolves it
  const base = { op: op.op, agent: caller.agent, ...(caller.reason !== undefined ? { reason: caller.reason } : {}) };
  switch (op.op) {
    case 'write':
      return { ...base, paths: [nfc(op.path)], hashes: [sha256(Buffer.from(op.content, 'utf8'))] };
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

export class IntentJournal {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  /** The intent left by a run that stopped before its commit, or null. */
  async read(): Promise<Intent | null> {
    await mkdir(path.dirname(this.#file), { recursive: true }).catch(() => undefined);
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch {
      return null;
    }
    if (text.trim() === '') return null;
    try {
      const i = JSON.parse(text) as Intent;
      return Array.isArray(i.paths) && Array.isArray(i.hashes) && typeof i.agent === 'string' ? i : null;
    } catch {
      return null; // torn by the crash itself: the op had not started changing files (record() syncs first)
    }
  }

  /**
   * Makes `intent` durable (fdatasync) before the caller changes any file. Resolves with why it could not (the data
   * dir full or read-only), or null: the write goes ahead either way — a crash then leaves it to the person's commit.
   */
  async record(intent: Intent): Promise<string | null> {
    try {
      const fh = await open(this.#file, 'w');
      try {
        await fh.writeFile(JSON.stringify(intent));
        await fh.datasync();
      } finally {
        await fh.close();
      }
      return null;
    } catch (err) {
      await this.clear(); // a half-written intent must not be read back
      return `${(err as NodeJS.ErrnoException).code ?? 'error'}: ${(err as Error).message}`;
    }
  }

  /**
   * Forgets the intent once its commit is made (or the op refused). Not synced: if a crash loses this, the next
   * start finds the intent's notes already committed — clean, so nothing is attributed twice.
   */
  async clear(): Promise<void> {
    await truncate(this.#file, 0).catch(() => undefined);
  }
}

/**
 * At start, before people's edits are committed: if the last run stopped between an agent's file change and its
 * commit, and the work tree shows exactly that change, commit it as that agent (with its trailers, so it can be
 * undone). Whatever else is dirty stays for the person's commit. Clears the journal either way.
 */
export async function recoverIntent(
  repo: GitRepo,
  journal: IntentJournal,
): Promise<{ sha: string; agent: string; paths: string[] } | { skipped: string } | null> {
  const intent = await journal.read();
  if (intent === null) return null;
  try {
    const dirty = new Set(await repo.dirtyPaths());
    const paths = intent.paths.filter((p) => dirty.has(p));
    if (paths.length === 0) return { skipped: 'its notes were committed before the stop' };
    if (!(await intentApplied(repo.root, intent))) return { skipped: 'the notes no longer hold what the agent wrote' };
    const c = await repo.commit(paths, {
      op: intent.op,
      paths: intent.paths,
      agent: intent.agent,
      ...(intent.reason !== undefined ? { reason: intent.reason } : {}),
      note: 'Recorded at start: memvault stopped after writing this change and before committing it.',
    });
    return c.ok ? { sha: c.sha, agent: intent.agent, paths } : { skipped: c.message };
  } finally {
    await journal.clear();
  }
}
