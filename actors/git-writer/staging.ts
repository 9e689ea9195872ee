// An agent mutation from plan to commit, split from the git-writer actor: the intent journaled (durable before the
// note changes), the file change (serialised, or beside other notes' for vault_write), the commit queued in the
// repository's batch, and the answer. Same-note order and the committing set (never a person's edit) live here.
import type { Logger } from 'pino';
import { fail } from '../../messages/common.js';
import type { GitMsg } from '../../messages/to-git.js';
import type { MutationResult, VaultOp } from '../../messages/vault-ops.js';
import type { CommitOp } from './git-message.js';
import type { GitRepo } from './git-repo.js';
import { intentFor, type Intent, type IntentJournal } from './intent-journal.js';
import { journalFailures, phases } from './metrics.js';
import { opPaths } from './note-state.js';
import type { OwnWrites } from './own-writes.js';
import type { PeopleEdits } from './people-edits.js';
import { serial, shared } from './sections.js';
import type { VaultWriter } from './vault/vault-writer.js';

/** What a write that git then refused put on disk, said by what it records (a note, unless named here). */
const WRITTEN: Partial<Record<CommitOp, string>> = {
  remember: 'the fact was written to the log',
  forget: 'the tombstone was written',
};

export type Ready = { kind: 'ready'; repo: GitRepo; writer: VaultWriter };
export type Caller = Extract<GitMsg, { type: 'git.mutate' }>['caller'];
type CommitMeta = Parameters<GitRepo['commit']>[1];

/** How the memory tools' appends differ from an agent's write: their own commit op, and reserved paths allowed. */
export interface As {
  commitOp: CommitOp;
  privileged: true;
}

export interface StagingDeps {
  vault: string;
  journal: IntentJournal;
  people: PeopleEdits;
  own: OwnWrites;
  log: Logger;
  /** The vault's repository made again if it vanished. */
  ensureRepo(s: Ready): Promise<void>;
  /** Agent writes git refused earlier: committed first, in order; armOwed retries them later. */
  payOwed(s: Ready): Promise<void>;
  armOwed(s: Ready): void;
  /** An agent commit made. */
  committed(sha: string, paths: string[]): void;
}

/** The git writer's mutation path; `committing` holds the notes whose agent commit is on its way. */
export function makeStaging(d: StagingDeps) {
  const { journal, people, own, log } = d;
  /** Per note, the write that has it: the next write of the note waits until that one is committed (same-note order). */
  const noteTurn = new Map<string, Promise<void>>();

  async function journalRecord(intent: Intent, replaces?: Intent): Promise<void> {
    const problem = await journal.record(intent, replaces);
    if (problem === null) return;
    journalFailures.inc();
    log.warn(
      { event: 'vault_intent_journal_failed', detail: problem },
      'could not record the write intent; a crash before its commit would leave it to the person',
    );
  }

  /** Commits not made yet, by path: a write waits for its note's last commit before changing the file (same-note order). */
  const committing = new Map<string, Promise<unknown>>();

  /**
   * One agent mutation: its file change serialised with every other (`plan` reads the vault inside that section, so
   * two appends never read the same text), its commit then queued in the repository without holding the section, so
   * writes that arrive meanwhile change their files and are committed in the same batch (GitRepo), each its own commit.
   */
  async function mutate(s: Ready, plan: () => Promise<VaultOp | VaultOp[]>, caller: Caller, as?: As): Promise<MutationResult> {
    const staged = await serial(() => stage(s, plan, caller, as));
    if (staged.kind === 'done') return staged.result;
    try {
      return await finish(staged);
    } finally {
      for (const i of staged.intents) forget(i);
    }
  }

  /**
   * The intent's commit is made (or owed): forgotten at once in memory, its file rewritten in the journal's own queue
   * without holding up the answer — that rewrite is never synced anyway (see IntentJournal#clear).
   */
  function forget(intent: Intent): void {
    void journal.clear(intent);
  }

  /** An agent's vault write, delete or move: as mutate, its file phase beside other notes' (see shared). */
  async function mutateNote(s: Ready, op: VaultOp, caller: Caller): Promise<MutationResult> {
    const paths = opPaths(op).map((p) => p.normalize('NFC'));
    const before = paths.map((p) => noteTurn.get(p));
    let release = (): void => {};
    const mine = new Promise<void>((r) => {
      release = r;
    });
    for (const p of paths) noteTurn.set(p, mine);
    try {
      await Promise.all(before);
      const staged = await shared(() => stage(s, async () => op, caller));
      if (staged.kind === 'done') return staged.result;
      try {
        return await finish(staged);
      } finally {
        for (const i of staged.intents) forget(i);
      }
    } finally {
      release();
      for (const p of paths) if (noteTurn.get(p) === mine) noteTurn.delete(p);
    }
  }

  type Staged =
    | { kind: 'done'; result: MutationResult }
    | {
        kind: 'committing';
        op: VaultOp;
        /** What the commit records (`remember` and `forget` write the fact log, not a note). */
        commitOp: CommitOp;
        intents: Intent[];
        applied: { paths: string[]; mtimeMs: number | null; contentHash: string | null };
        /** A later op of a several-file write failed: what was applied before it is committed, then this is the answer. */
        failed?: MutationResult;
        commit: Promise<Awaited<ReturnType<GitRepo['commit']>>>;
        /** The written notes' folder fsyncs (their renames made durable), running beside the commit. */
        synced: Promise<unknown>;
        started: number;
        fileDone: number;
      };

  /** Applies `plan`'s op (or ops, committed together as one commit: the curation run's USER.md and audit line). */
  async function stage(s: Ready, plan: () => Promise<VaultOp | VaultOp[]>, caller: Caller, as?: As): Promise<Staged> {
    const detached = s.repo.headProblem();
    if (detached !== null) return { kind: 'done', result: fail('unavailable', detached) };
    const planned = await plan();
    const ops = Array.isArray(planned) ? planned : [planned];
    const op = ops[0];
    if (op === undefined) throw new Error('a write plan with no op');
    // the note's earlier commit reads the work tree: it must be made before this write changes the file
    await Promise.all(ops.flatMap(opPaths).map((p) => committing.get(p.normalize('NFC'))));
    // durable before any file changes: a crash before the commit is then recorded at the next start as this agent's.
    // It syncs while the new bytes go to their temp file (a write changes its note only at the rename: beforeWrite).
    const intents: Intent[] = [];
    for (const o of ops) intents.push(await intentFor(d.vault, o, caller, as?.commitOp));
    const durable = Promise.all(intents.map((i) => journalRecord(i))); // one group fsync covers them all
    const started = performance.now();
    try {
      await d.ensureRepo(s);
      if (journal.owed.length) await d.payOwed(s); // earlier writes git refused are recorded first, in order
      // a person's uncommitted edit of the same note is committed first, as theirs: neither text is lost
      await people.commitFirst(ops.flatMap(opPaths));
      if (ops.some((o) => o.op !== 'write')) await durable; // a delete or move changes the vault as it is applied
      const paths: string[] = [];
      let first: { mtimeMs: number | null; contentHash: string | null } | null = null;
      let failed: MutationResult | undefined;
      let appliedN = 0;
      // each written note's folder fsync runs beside the commit; the answer waits for both (see finish)
      const synced: Promise<void>[] = [];
      const folderSync = (p: Promise<void>): void => {
        p.catch(() => {}); // awaited in finish; a stage that throws before then must not leave it unhandled
        synced.push(p);
      };
      for (const [k, o] of ops.entries()) {
        // the frontmatter merge changed the bytes: the journal knows the hash the note will have before the file changes
        const beforeWrite = async (h: string): Promise<void> => {
          await durable;
          const i0 = intents[k]!;
          if (i0.hashes.includes(h)) return;
          intents[k] = { ...i0, hashes: [...i0.hashes, h] };
          await journalRecord(intents[k]!, i0);
        };
        const applied = await s.writer.apply(o, { ...caller, ...(as ? { privileged: true } : {}), beforeWrite, folderSync });
        if (!applied.ok) {
          failed = applied;
          break;
        }
        paths.push(...applied.paths);
        first ??= applied;
        appliedN++;
      }
      await durable; // settled before the intents can be cleared (a write the writer refused, or one already in place)
      const fileDone = performance.now();
      phases.observe({ phase: 'file' }, (fileDone - started) / 1000);
      if (first === null) {
        await Promise.all(synced);
        for (const i of intents) await journal.clear(i);
        return { kind: 'done', result: failed! };
      }
      const meta: CommitMeta = {
        op: as?.commitOp ?? op.op,
        paths,
        agent: caller.agent,
        reason: caller.reason,
        skill: caller.skill,
        run: caller.run,
        batch: caller.batch,
      };
      // a commit git refuses is owed (journaled) before the note stops counting as committing: never a person's edit
      const commit = s.repo.commit(paths, meta).then(async (c) => {
        if (!c.ok && c.reason !== 'nothing_to_commit') {
          const done = intents.slice(0, appliedN);
          for (const i of done) await journal.owe(done.length === 1 ? { ...i, paths } : i);
          d.armOwed(s);
        } else await own.record(paths); // before the note stops counting as committing: its echo is ours
        return c;
      });
      const settled = commit.catch(() => {});
      for (const p of paths) {
        committing.set(p, settled);
        void settled.then(() => {
          if (committing.get(p) === settled) committing.delete(p);
        });
      }
      const applied = { paths, mtimeMs: first.mtimeMs, contentHash: first.contentHash };
      return {
        kind: 'committing',
        op,
        commitOp: meta.op,
        intents,
        applied,
        commit,
        synced: Promise.all(synced),
        started,
        fileDone,
        ...(failed ? { failed } : {}),
      };
    } catch (err) {
      await durable.catch(() => {});
      for (const i of intents) await journal.clear(i);
      throw err;
    }
  }

  async function finish(st: Extract<Staged, { kind: 'committing' }>): Promise<MutationResult> {
    const { op, applied } = st;
    const c = await st.commit;
    const unsynced = await st.synced.then(
      () => null,
      (err: NodeJS.ErrnoException) => `${err.code ?? 'error'}: ${err.message}`,
    );
    phases.observe({ phase: 'commit' }, (performance.now() - st.fileDone) / 1000);
    phases.observe({ phase: 'total' }, (performance.now() - st.started) / 1000);
    if (!c.ok && c.reason !== 'nothing_to_commit') {
      const what = WRITTEN[st.commitOp] ?? 'the note was written';
      // the writer's free-space check makes this rare (another program filled the disk in between)
      if (/No space left on device|Disk quota exceeded/i.test(c.message))
        return fail(
          'disk_full',
          `${what} but git could not commit it: the disk is full (${c.message}); it is on disk, and memvault commits it as this agent's once space is freed — do not send it again`,
        );
      return fail(
        'unavailable',
        `${what} but git could not commit it (${c.message}); it is on disk, and memvault commits it as this agent's once git works again (a stale .git/index.lock left by a killed git: remove it if no git runs) — do not send it again`,
      );
    }
    if (c.ok) {
      d.committed(c.sha, applied.paths);
    }
    if (st.failed) return st.failed;
    if (unsynced !== null)
      return fail(
        'unavailable',
        `the note was written and committed, but its folder could not be synced to disk (${unsynced}): it may not survive a power cut — write it again once the disk is healthy`,
      );
    return {
      ok: true,
      op: op.op,
      paths: applied.paths,
      commit: c.ok ? c.sha : null,
      mtimeMs: applied.mtimeMs,
      contentHash: applied.contentHash,
    };
  }

  return { mutate, mutateNote, committing };
}
