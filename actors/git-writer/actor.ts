// The git-writer actor: the one mutation path. Validates and applies each agent mutation to the vault (atomic
// file writes) and records it as exactly one commit; undoes with `git revert`; commits people's own edits as the
// person after a quiet period. Every git call is serialised here, so commits never race on the index lock.
import path from 'node:path';
import { serial } from './sections.js';
import { noteState, opPaths } from './note-state.js';
import { OwedCommits, reportRecovered } from './owed.js';
import { reopenIfGone } from './reopen.js';
import { commits, undos, worktree, writes } from './metrics.js';
import { runActor } from '../../supervisors/runtime/worker.js';
import { boot } from '../../supervisors/runtime/boot.js';
import { GIT_STATES, stateCode } from '../../supervisors/runtime/board.js';
import { assertNever, fail } from '../../messages/common.js';
import type { GitMsg, PersonCommitResult } from '../../messages/to-git.js';
import type { MainMsg } from '../../messages/to-main.js';
import type { UndoRequest, Caller as VaultCaller, MutationResult, VaultOp } from '../../messages/vault-ops.js';
import { ACTORS, type Sends } from '../../supervisors/actors.js';
import { notPersonsNote } from './persons-notes.js';
import { VaultWriter } from './vault/vault-writer.js';
import { removeStaleTemps } from './vault/atomic.js';
import { GitRepo, STATE_DIR } from './git-repo.js';
import { IntentJournal, recoverIntents } from './intent-journal.js';
import { makeStaging, type Ready } from './staging.js';
import type { CommitOp } from './git-message.js';
import { OwnWrites } from './own-writes.js';
import { PeopleEdits } from './people-edits.js';
import { notesUnder } from './folder-notes.js';
import { memoryPaths } from '../memory/paths.js';
import { planForget, planRemember, rememberProblem } from './memory-writes.js';
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

type State = Ready | { kind: 'off'; reason: string };

const ignore = notPersonsNote(cfg.vault, cfg.data_dir);
/** What git status names as changed in the work tree, a person's notes only (hidden folders and the data dir left out). */
const personsChanges = async (repo: GitRepo): Promise<string[]> => (await repo.dirtyPaths()).filter((p) => !ignore(p, false));
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
const people = new PeopleEdits({ quietMs: w.human_quiet_ms, serial, commit: commitPeopleOrSay });
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
  GitRepo.open(cfg.vault, {
    author: w.author,
    person: w.person,
    onWarning: (m) => log.warn({ event: 'vault_git_warning' }, m),
    appendOnly: (rel) => rel === memory.tombstones,
  });

async function ensureRepoNow(s: Ready): Promise<void> {
  const repo = await reopenIfGone(cfg.vault, s.repo.root, openRepo, log);
  if (repo) s.repo = repo;
}

/** An undo under way (an agent's, or a dream run's): its OS echo is weighed once it has recorded what it left. */
let undoing: Promise<unknown> | null = null;

/** An undo (`run`) in the serial section, what it left recorded as ours before an OS event is weighed. */
function asUndo<T extends { ok: true; paths: string[] } | { ok: false }>(s: Ready, run: (repo: GitRepo) => Promise<T>): Promise<T> {
  const r = serial(async () => {
    await ensureRepo(s);
    const u = await run(s.repo);
    if (u.ok) await own.record(u.paths);
    return u;
  });
  const settled = r.then(
    () => {},
    () => {},
  );
  undoing = settled;
  void settled.then(() => {
    if (undoing === settled) undoing = null;
  });
  return r;
}

/** `vault_undo_last`: the newest undoable change (of the agent's own, when it asks so) reverted. */
function undoNow(s: Ready, req: UndoRequest & { reason?: string }): ReturnType<GitRepo['undoLast']> {
  return asUndo(s, (repo) => repo.undoLast({ agent: req.onlyMine ? req.agent : undefined, byAgent: req.agent, reason: req.reason }));
}

/** Paths changed on disk: the person's edits among them are committed after a quiet period. */
async function worktreeChanged(paths: string[]): Promise<void> {
  const notes = [...new Set(paths.map((p) => p.normalize('NFC')))];
  // the echo of a write whose commit is being made, or of an undo: told apart once that commit is (see stage)
  await Promise.all([...notes.map((p) => committing.get(p)), undoing]);
  const theirs = await own.othersOf(notes);
  worktree.inc({ by: 'own' }, notes.length - theirs.length);
  worktree.inc({ by: 'person' }, theirs.length);
  people.changed(theirs);
}

/**
 * People's commits run from timers, where a throw (a bug) would be caught by the serial chain and their paths lost
 * with no word: it is logged as an error and the paths wait for the retry, as when git refuses (1 s doubling to 60 s),
 * rather than crash the actor over and over on an edit that keeps failing.
 */
async function commitPeopleOrSay(paths: string[]): Promise<boolean> {
  try {
    return await commitPeople(paths);
  } catch (err) {
    log.error(
      { event: 'vault_human_commit', reason: 'internal', detail: (err as Error).message, paths },
      'a bug kept edits made outside memvault from being committed; retrying',
    );
    return false;
  }
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

const owed = new OwedCommits({
  journal,
  serial,
  committed: (sha, paths) => committed('agent', sha, paths),
});
const payOwed = (s: Ready): Promise<void> => owed.pay(s.repo);
const armOwed = (s: Ready): void => owed.arm(s.repo);
const { mutate, mutateNote, committing } = makeStaging({
  vault: cfg.vault,
  journal,
  people,
  own,
  log,
  ensureRepo,
  payOwed,
  armOwed,
  committed: (sha, paths) => committed('agent', sha, paths),
});

/**
 * A privileged write — the memory tools' tombstones, the dream's journal and MEMORY.md, the curation run's USER.md —
 * planned inside the serial section, counted, told to whoever indexes it, and answered.
 */
async function privilegedWrite(
  ctx: { emit(m: Sends<'git'>): void; reply(value: unknown): void },
  s: State,
  caller: VaultCaller,
  metric: string,
  commitOp: CommitOp,
  plan: () => Promise<VaultOp | VaultOp[]>,
): Promise<void> {
  const result: MutationResult =
    s.kind === 'off'
      ? fail('unavailable', s.reason)
      : await mutate(s, plan, { ...caller, mayReadSensitive: false }, { commitOp, privileged: true });
  writes.inc({ op: metric, outcome: result.ok ? 'ok' : result.reason });
  if (result.ok) touched(ctx, result.paths);
  ctx.reply(result);
}

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
      case 'git.forget':
        return privilegedWrite(ctx, s, msg.caller, 'forget', 'forget', () => planForget(cfg.vault, memory, msg.lines, Date.now()));
      case 'git.dream_journal':
        return privilegedWrite(ctx, s, msg.caller, 'dream_journal', 'write', () => planJournal(cfg.vault, memory, msg.line));
      case 'git.dream_memory_md':
        return privilegedWrite(ctx, s, msg.caller, 'dream_memory_md', 'write', async () => ({
          op: 'write',
          path: MEMORY_MD,
          content: msg.content,
        }));
      case 'git.curation':
        return privilegedWrite(ctx, s, msg.caller, 'curation', 'write', () => planCuration(cfg.vault, msg));
      case 'git.undo_run': {
        // an undo made while HEAD is detached would belong to no branch: acknowledged, then gone at the next checkout
        const refused = s.kind === 'off' ? s.reason : s.repo.headProblem('undo the run again');
        if (refused !== null || s.kind === 'off') {
          ctx.reply(fail('git_failed', refused ?? 'writes are off'));
          return;
        }
        const r = await asUndo(s, (repo) => undoRun(repo, msg.run, msg.by));
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
        // an undo made while HEAD is detached would belong to no branch: acknowledged, then gone at the next checkout
        const detached = s.kind === 'off' ? null : s.repo.headProblem('undo again');
        if (s.kind === 'off') result = fail('unavailable', s.reason);
        else if (detached !== null) result = fail('unavailable', detached);
        else {
          // a person's edits are theirs, committed first: the undo then weighs them as later changes, instead of
          // refusing over uncommitted changes nobody but memvault would commit
          await serial(() => people.commitAll());
          let r = await undoNow(s, msg.req);
          if (!r.ok && 'uncommitted' in r) {
            // git refused before touching anything: an edit whose OS event has not come yet. git status names it (one
            // process, only now: an undo of a clean tree needs none), it is committed as the person's, and the undo
            // runs again. (A git status that fails leaves that to the undo, which reports it.)
            await worktreeChanged(await personsChanges(s.repo).catch(() => []));
            await serial(() => people.commitAll());
            r = await undoNow(s, msg.req);
          }
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
        const named = msg.paths.filter((p) => !ignore(p, false));
        // a folder named like a note: the notes made in it at once may have no event of their own
        const inside = named.flatMap((p) => notesUnder(cfg.vault, p, ignore));
        return worktreeChanged([...named, ...inside]);
      }
      case 'git.worktree_rescan': {
        if (s.kind === 'off') return;
        // the vault may be gone, or back without its repository yet (removed and made again): git status fails then,
        // and the repository is made again by the next commit (ensureRepo), whose own status covers these edits
        const dirty = await personsChanges(s.repo).catch((err: unknown) => {
          log.warn(
            { event: 'vault_worktree_rescan', reason: msg.reason, err: String(err) },
            'git status failed; the next commit looks again',
          );
          return null;
        });
        if (dirty === null) return;
        if (dirty.length) log.info({ event: 'vault_worktree_rescan', reason: msg.reason, paths: dirty.length }, 'git status names changes');
        return worktreeChanged(dirty);
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
    // an undo cut off before its commit is put back: it was never answered, and is no person's edit either
    const undo = await repo.settleCutOffUndo();
    if (undo)
      log.warn(
        { event: 'vault_undo_cut_off', reverts: undo.mark.reverts, restored: undo.restored, kept: undo.kept },
        'an undo a crash cut off before its commit did not happen; its notes were put back as HEAD has them',
      );
    // agents' changes the last run wrote but did not commit (cut off, or refused by git) are theirs, not the person's
    reportRecovered(await recoverIntents(repo, journal), (sha, paths) => committed('agent', sha, paths), log);
    // notes edited while the daemon was down are a person's edits: record them before any agent writes
    ready = { kind: 'ready', repo, writer };
    const dirty = await personsChanges(repo);
    if (dirty.length) await people.commitNow(dirty);
    board.set('gitState', stateCode(GIT_STATES, 'ready'));
    return ready;
  },
  // writes change their files one at a time (serial) but wait for their commits together: see mutate
  { concurrency: ACTORS.git.concurrency },
);
