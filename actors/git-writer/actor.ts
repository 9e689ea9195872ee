// The git-writer actor: the one mutation path. Validates and applies each agent mutation to the vault (atomic
// file writes) and records it as exactly one commit; undoes with `git revert`; commits people's own edits as the
// person after a quiet period. Every git call is serialised here, so commits never race on the index lock.
import path from 'node:path';
import { serial, shared } from './sections.js';
import { noteState, opPaths } from './note-state.js';
import { OwedCommits, reportRecovered } from './owed.js';
import { reopenIfGone } from './reopen.js';
import { commits, journalFailures, phases, undos, worktree, writes } from './metrics.js';
import { runActor } from '../../supervisors/runtime/worker.js';
import { boot } from '../../supervisors/runtime/boot.js';
import { GIT_STATES, stateCode } from '../../supervisors/runtime/board.js';
import { assertNever, fail } from '../../messages/common.js';
import type { GitMsg, PersonCommitResult } from '../../messages/to-git.js';
import type { MainMsg } from '../../messages/to-main.js';
import type { MutationResult, VaultOp } from '../../messages/vault-ops.js';
import { ACTORS, type Sends } from '../../supervisors/actors.js';
import { makeIgnore } from '../watcher/scan.js';
import { VaultWriter } from './vault/vault-writer.js';
import { removeStaleTemps } from './vault/atomic.js';
import { GitRepo, STATE_DIR } from './git-repo.js';
import { IntentJournal, intentFor, recoverIntents, type Intent } from './intent-journal.js';
import { OwnWrites } from './own-writes.js';
import { PeopleEdits } from './people-edits.js';
import { memoryPaths } from '../memory/paths.js';
import { planForget, planRemember, rememberProblem } from './memory-writes.js';
import type { CommitOp } from './git-message.js';
import type { RememberResult } from '../../messages/vault-ops.js';
import { MEMORY_MD, planJournal, undoRun } from './dream-writes.js';
import { isCurationFile, planCuration } from './curation-writes.js';

const { b, board, log } = boot();
let notify: (m: MainMsg & Sends<'git'>) => void = () => {};
const cfg = b.config;
/** A commit made: counted by kind and told to main (`count`: an undo of a dream run reverts several at once). */
function committed(kind: 'agent' | 'undo' | 'human', sha: string, paths: string[], count = 1): void {
  commits.inc({ kind }, count);
  notify({ type: 'main.committed', kind, sha, paths });
}
const w = cfg.writes;

type Ready = { kind: 'ready'; repo: GitRepo; writer: VaultWriter };
type State = Ready | { kind: 'off'; reason: string };

/** Per note, the write that has it: the next write of the note waits until that one is committed (same-note order). */
const noteTurn = new Map<string, Promise<void>>();

const ignore = makeIgnore(cfg.watcher.ignore);
const memory = memoryPaths(cfg.memory.folder);
/** What a write touched, told to whoever indexes it: the fact log's files to the memory actor, notes to the watcher. */
function touched(ctx: { emit(m: Sends<'git'>): void }, paths: string[]): void {
  const mem = paths.filter((p) => memory.isMemoryFile(p));
  const notes = paths.filter((p) => !memory.isMemoryFile(p));
  if (mem.length) ctx.emit({ type: 'memory.fs_events', paths: mem, from: 'git' });
  if (notes.length) ctx.emit({ type: 'watcher.fs_events', paths: notes });
}
const journal = new IntentJournal(path.join(cfg.data_dir, 'git-intent.json'));
/** The repository once started: people's edits are committed to it from timers as well as from messages. */
let ready: Ready | null = null;
const people = new PeopleEdits({ quietMs: w.human_quiet_ms, serial, commit: commitPeople });
/** What our own writes left on disk: their OS events come back as work-tree changes and are not a person's edits. */
const own = new OwnWrites(cfg.vault);

/** The vault's repository made again if it vanished (reopen.ts); one re-initialisation at a time (agent writes of different notes check at once). */
let ensuring: Promise<void> | null = null;
function ensureRepo(s: Ready): Promise<void> {
  ensuring ??= ensureRepoNow(s).finally(() => {
    ensuring = null;
  });
  return ensuring;
}

const openRepo = () =>
  GitRepo.open(cfg.vault, { author: w.author, person: w.person, onWarning: (m) => log.warn({ event: 'vault_git_warning' }, m) });

async function ensureRepoNow(s: Ready): Promise<void> {
  const repo = await reopenIfGone(cfg.vault, s.repo.root, openRepo, log);
  if (repo) s.repo = repo;
}

/** Commits `paths` as the person; false when git refused them (PeopleEdits keeps them for a retry). */
async function commitPeople(paths: string[]): Promise<boolean> {
  const s = ready;
  if (!s) return true;
  await ensureRepo(s);
  // an agent's write git refused earlier is the agent's, not a person's edit: record it first, as the agent
  if (journal.owed.length) await payOwed(s);
  const agents = new Set(journal.owed.flatMap((o) => o.paths.map((p) => p.normalize('NFC'))));
  for (const p of committing.keys()) agents.add(p); // an agent's commit is on its way: the change is the agent's
  const theirs = paths.filter((p) => !agents.has(p));
  if (theirs.length === 0) return true;
  const r = await s.repo.commitHumanChanges(theirs);
  if (r.ok) {
    committed('human', r.sha, r.paths);
    log.info({ event: 'vault_human_commit', sha: r.sha, paths: r.paths }, 'committed edits made outside memvault');
    return true;
  }
  if (r.reason === 'nothing_to_commit') return true;
  log.warn({ event: 'vault_human_commit', reason: r.reason, detail: r.message }, 'could not commit edits made outside memvault');
  return false;
}

type Caller = Extract<GitMsg, { type: 'git.mutate' }>['caller'];

async function journalRecord(intent: Intent, replaces?: Intent): Promise<void> {
  const problem = await journal.record(intent, replaces);
  if (problem === null) return;
  journalFailures.inc();
  log.warn(
    { event: 'vault_intent_journal_failed', detail: problem },
    'could not record the write intent; a crash before its commit would leave it to the person',
  );
}

/** How the memory tools' appends differ from an agent's write: their own commit op, and reserved paths allowed. */
interface As {
  commitOp: CommitOp;
  privileged: true;
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
      intents: Intent[];
      applied: { paths: string[]; mtimeMs: number | null; contentHash: string | null };
      /** A later op of a several-file write failed: what was applied before it is committed, then this is the answer. */
      failed?: MutationResult;
      commit: Promise<Awaited<ReturnType<GitRepo['commit']>>>;
      started: number;
      fileDone: number;
    };

/** Applies `plan`'s op (or ops, committed together as one commit: the curation run's USER.md and audit line). */
async function stage(s: Ready, plan: () => Promise<VaultOp | VaultOp[]>, caller: Caller, as?: As): Promise<Staged> {
  const planned = await plan();
  const ops = Array.isArray(planned) ? planned : [planned];
  const op = ops[0];
  if (op === undefined) throw new Error('a write plan with no op');
  // the note's earlier commit reads the work tree: it must be made before this write changes the file
  await Promise.all(ops.flatMap(opPaths).map((p) => committing.get(p.normalize('NFC'))));
  // durable before any file changes: a crash before the commit is then recorded at the next start as this agent's.
  // It syncs while the new bytes go to their temp file (a write changes its note only at the rename: beforeWrite).
  const intents: Intent[] = [];
  for (const o of ops) intents.push(await intentFor(cfg.vault, o, caller));
  const durable = Promise.all(intents.map((i) => journalRecord(i))); // one group fsync covers them all
  const started = performance.now();
  try {
    await ensureRepo(s);
    if (journal.owed.length) await payOwed(s); // earlier writes git refused are recorded first, in order
    // a person's uncommitted edit of the same note is committed first, as theirs: neither text is lost
    await people.commitFirst(ops.flatMap(opPaths));
    if (ops.some((o) => o.op !== 'write')) await durable; // a delete or move changes the vault as it is applied
    const paths: string[] = [];
    let first: { mtimeMs: number | null; contentHash: string | null } | null = null;
    let failed: MutationResult | undefined;
    let appliedN = 0;
    for (const [k, o] of ops.entries()) {
      // the frontmatter merge changed the bytes: the journal knows the hash the note will have before the file changes
      const beforeWrite = async (h: string): Promise<void> => {
        await durable;
        const i0 = intents[k]!;
        if (i0.hashes.includes(h)) return;
        intents[k] = { ...i0, hashes: [...i0.hashes, h] };
        await journalRecord(intents[k]!, i0);
      };
      const applied = await s.writer.apply(o, { ...caller, ...(as ? { privileged: true } : {}), beforeWrite });
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
        armOwed(s);
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
    return { kind: 'committing', op, intents, applied, commit, started, fileDone, ...(failed ? { failed } : {}) };
  } catch (err) {
    await durable.catch(() => {});
    for (const i of intents) await journal.clear(i);
    throw err;
  }
}

async function finish(st: Extract<Staged, { kind: 'committing' }>): Promise<MutationResult> {
  const { op, applied } = st;
  const c = await st.commit;
  phases.observe({ phase: 'commit' }, (performance.now() - st.fileDone) / 1000);
  phases.observe({ phase: 'total' }, (performance.now() - st.started) / 1000);
  if (!c.ok && c.reason !== 'nothing_to_commit') {
    // the writer's free-space check makes this rare (another program filled the disk in between)
    if (/No space left on device|Disk quota exceeded/i.test(c.message))
      return fail(
        'disk_full',
        `the note was written but git could not commit it: the disk is full (${c.message}); it is on disk — free some space, then retry the write to record it`,
      );
    return fail(
      'unavailable',
      `the note was written but git could not commit it (${c.message}); it is on disk — retry the write to record it`,
    );
  }
  if (c.ok) {
    committed('agent', c.sha, applied.paths);
  }
  if (st.failed) return st.failed;
  return {
    ok: true,
    op: op.op,
    paths: applied.paths,
    commit: c.ok ? c.sha : null,
    mtimeMs: applied.mtimeMs,
    contentHash: applied.contentHash,
  };
}

type CommitMeta = Parameters<GitRepo['commit']>[1];
const owed = new OwedCommits({
  journal,
  serial,
  committed: (sha, paths) => committed('agent', sha, paths),
});
const payOwed = (s: Ready): Promise<void> => owed.pay(s.repo);
const armOwed = (s: Ready): void => owed.arm(s.repo);

runActor<GitMsg, Sends<'git'>, State>(
  async (msg, ctx) => {
    const s = ctx.state;
    switch (msg.type) {
      case 'git.mutate': {
        const result: MutationResult = s.kind === 'off' ? fail('unavailable', s.reason) : await mutateNote(s, msg.op, msg.caller);
        writes.inc({ op: msg.op.op, outcome: result.ok ? 'ok' : result.reason });
        log.info(
          {
            event: 'vault_write',
            op: msg.op.op,
            paths: opPaths(msg.op),
            agent: msg.caller.agent,
            outcome: result.ok ? 'ok' : result.reason,
            commit: result.ok ? result.commit : undefined,
          },
          'vault write',
        );
        // tell the watcher directly: OS events for a quick write-then-delete can coalesce into nothing
        if (result.ok) touched(ctx, result.paths);
        ctx.reply(result);
        return;
      }
      case 'git.remember': {
        const caller = { ...msg.caller, mayReadSensitive: false };
        let plan: Awaited<ReturnType<typeof planRemember>> | null = null;
        const problem = rememberProblem(msg.fact);
        const result: MutationResult =
          s.kind === 'off'
            ? fail('unavailable', s.reason)
            : problem !== null
              ? fail('invalid_content', problem)
              : await mutate(
                  s,
                  async () => {
                    plan = await planRemember(cfg.vault, memory, msg.fact, Date.now());
                    return plan.op;
                  },
                  caller,
                  { commitOp: 'remember', privileged: true },
                );
        writes.inc({ op: 'remember', outcome: result.ok ? 'ok' : result.reason });
        const p = plan as Awaited<ReturnType<typeof planRemember>> | null;
        if (!result.ok || !p) {
          ctx.reply(result.ok ? fail('unavailable', 'the fact could not be appended') : result);
          return;
        }
        const path0 = result.paths[0] ?? p.op.path;
        log.info(
          { event: 'memory_remember', path: path0, fact_id: p.factId, agent: msg.caller.agent, commit: result.commit },
          'fact remembered',
        );
        ctx.emit({ type: 'memory.facts_appended', path: path0 });
        const answer: RememberResult = { ok: true, fact_id: p.factId, path: path0, line: p.line, commit: result.commit, at: p.at };
        ctx.reply(answer);
        return;
      }
      case 'git.forget': {
        const caller = { ...msg.caller, mayReadSensitive: false };
        const result: MutationResult =
          s.kind === 'off'
            ? fail('unavailable', s.reason)
            : await mutate(s, () => planForget(cfg.vault, memory, msg.lines), caller, { commitOp: 'forget', privileged: true });
        writes.inc({ op: 'forget', outcome: result.ok ? 'ok' : result.reason });
        if (result.ok) touched(ctx, result.paths);
        ctx.reply(result);
        return;
      }
      case 'git.dream_journal': {
        const caller = { ...msg.caller, mayReadSensitive: false };
        const result: MutationResult =
          s.kind === 'off'
            ? fail('unavailable', s.reason)
            : await mutate(s, () => planJournal(cfg.vault, memory, msg.line), caller, { commitOp: 'write', privileged: true });
        writes.inc({ op: 'dream_journal', outcome: result.ok ? 'ok' : result.reason });
        if (result.ok) touched(ctx, result.paths);
        ctx.reply(result);
        return;
      }
      case 'git.dream_memory_md': {
        const caller = { ...msg.caller, mayReadSensitive: false };
        const op: VaultOp = { op: 'write', path: MEMORY_MD, content: msg.content };
        const result: MutationResult =
          s.kind === 'off'
            ? fail('unavailable', s.reason)
            : await mutate(s, async () => op, caller, { commitOp: 'write', privileged: true });
        writes.inc({ op: 'dream_memory_md', outcome: result.ok ? 'ok' : result.reason });
        if (result.ok) touched(ctx, result.paths);
        ctx.reply(result);
        return;
      }
      case 'git.curation': {
        const caller = { ...msg.caller, mayReadSensitive: false };
        const result: MutationResult =
          s.kind === 'off'
            ? fail('unavailable', s.reason)
            : await mutate(s, () => planCuration(cfg.vault, msg), caller, { commitOp: 'write', privileged: true });
        writes.inc({ op: 'curation', outcome: result.ok ? 'ok' : result.reason });
        if (result.ok) touched(ctx, result.paths);
        ctx.reply(result);
        return;
      }
      case 'git.undo_run': {
        if (s.kind === 'off') {
          ctx.reply(fail('git_failed', s.reason));
          return;
        }
        const r = await serial(async () => {
          await ensureRepo(s);
          const u = await undoRun(s.repo, msg.run, msg.by);
          if (u.ok) await own.record(u.paths);
          return u;
        });
        undos.inc({ outcome: r.ok ? 'ok' : r.reason });
        log.info(
          { event: 'vault_undo_run', run: msg.run, outcome: r.ok ? 'ok' : r.reason, commits: r.ok ? r.commits : undefined },
          'dream run undone',
        );
        if (r.ok) {
          committed('undo', r.commits[r.commits.length - 1]!, r.paths, r.commits.length);
          touched(ctx, r.paths);
        }
        ctx.reply(r);
        return;
      }
      case 'git.undo': {
        let result: MutationResult;
        if (s.kind === 'off') result = fail('unavailable', s.reason);
        else {
          const r = await serial(async () => {
            await ensureRepo(s);
            const undone = await s.repo.undoLast({
              agent: msg.req.onlyMine ? msg.req.agent : undefined,
              byAgent: msg.req.agent,
              reason: msg.req.reason,
            });
            if (undone.ok) await own.record(undone.paths);
            return undone;
          });
          if (r.ok) {
            committed('undo', r.sha, r.paths);
            const first = r.paths[0];
            const st = first && r.paths.length === 1 ? await noteState(cfg.vault, first) : { mtimeMs: null, contentHash: null };
            result = { ok: true, op: 'undo', paths: r.paths, commit: r.sha, ...st };
          } else result = r.reason === 'git_failed' ? fail('unavailable', r.message) : fail(r.reason, r.message);
        }
        undos.inc({ outcome: result.ok ? 'ok' : result.reason });
        log.info(
          {
            event: 'vault_undo',
            agent: msg.req.agent,
            outcome: result.ok ? 'ok' : result.reason,
            commit: result.ok ? result.commit : undefined,
          },
          'vault undo',
        );
        if (result.ok) touched(ctx, result.paths);
        ctx.reply(result);
        return;
      }
      case 'git.commit_person': {
        // the gateway wrote the files atomically; commit them now as the given person (PeopleEdits would wait)
        const paths = msg.paths.map((p) => p.normalize('NFC'));
        if (msg.before) {
          if (s.kind !== 'off') await serial(() => people.commitFirst(paths));
          ctx.reply({ ok: true, commit: null, paths: [] });
          return;
        }
        const result: PersonCommitResult =
          paths.length === 0
            ? { ok: true, commit: null, paths: [] }
            : s.kind === 'off'
              ? { ok: false, reason: 'unavailable', message: s.reason }
              : await serial(async () => {
                  await ensureRepo(s);
                  if (journal.owed.length) await payOwed(s);
                  people.forget(paths);
                  const r = await s.repo.commitHumanChanges(paths, msg.author);
                  await own.record(paths);
                  if (r.ok) {
                    committed('human', r.sha, r.paths);
                    return { ok: true, commit: r.sha, paths: r.paths };
                  }
                  if (r.reason === 'nothing_to_commit') return { ok: true, commit: null, paths: [] };
                  people.changed(paths); // kept: committed as the person by the usual retry
                  return { ok: false, reason: 'unavailable', message: r.message };
                });
        log.info(
          { event: 'vault_person_commit', paths, author: msg.author.name, commit: result.ok ? result.commit : undefined },
          'committed a WebDAV change',
        );
        if (result.ok) touched(ctx, paths);
        ctx.reply(result);
        return;
      }
      case 'git.worktree_changed': {
        if (s.kind === 'off') return;
        const notes = msg.paths.filter((p) => !ignore(p, false)).map((p) => p.normalize('NFC'));
        // the echo of a write whose commit is being made: told apart once that commit is (see stage)
        await Promise.all(notes.map((p) => committing.get(p)));
        const theirs = await own.othersOf(notes);
        worktree.inc({ by: 'own' }, notes.length - theirs.length);
        worktree.inc({ by: 'person' }, theirs.length);
        people.changed(theirs);
        return;
      }
      default:
        assertNever(msg);
    }
  },
  async (init) => {
    notify = init.emit;
    board.set('gitState', stateCode(GIT_STATES, 'starting'));
    const repo = await openRepo();
    if (!(repo instanceof GitRepo)) {
      board.set(
        'gitState',
        stateCode(GIT_STATES, repo.reason === 'git_missing' || repo.reason === 'git_too_old' ? repo.reason : 'git_failed'),
      );
      log.error(
        { event: 'vault_git_unavailable', reason: repo.reason, detail: repo.message },
        'vault writes are off; search keeps working',
      );
      return { kind: 'off', reason: `${repo.reason}: ${repo.message}` };
    }
    const writer = new VaultWriter({
      root: cfg.vault,
      allowlist: w.allowlist,
      maxBytes: w.max_bytes,
      reserved: (rel) => memory.isReserved(rel) || isCurationFile(rel),
    });
    // a write cut short by a crash left its temp file (the note kept its old bytes): litter git would call untracked
    const stale = await removeStaleTemps(cfg.vault, ['.git', STATE_DIR]);
    if (stale.length) log.warn({ event: 'vault_stale_temps_removed', paths: stale }, 'removed temp files of writes a crash cut short');
    // agents' changes the last run wrote but did not commit (cut off, or refused by git) are theirs, not the person's
    reportRecovered(await recoverIntents(repo, journal), (sha, paths) => committed('agent', sha, paths), log);
    // notes edited while the daemon was down are a person's edits: record them before any agent writes
    ready = { kind: 'ready', repo, writer };
    const dirty = (await repo.dirtyPaths()).filter((p) => !ignore(p, false));
    if (dirty.length) await people.commitNow(dirty);
    board.set('gitState', stateCode(GIT_STATES, 'ready'));
    return ready;
  },
  // writes change their files one at a time (serial) but wait for their commits together: see mutate
  { concurrency: ACTORS.git.concurrency },
);
