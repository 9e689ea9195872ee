// The git-writer actor: the one mutation path. Validates and applies each agent mutation to the vault (atomic
// file writes) and records it as exactly one commit; undoes with `git revert`; commits people's own edits as the
// person after a quiet period. Every git call is serialised here, so commits never race on the index lock.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Counter, Histogram } from 'prom-client';
import { runActor } from '../runtime/worker.js';
import { boot } from '../common/boot.js';
import { assertNever, fail } from '../../messages/common.js';
import type { GitMsg } from '../../messages/to-git.js';
import type { GatewayMsg } from '../../messages/to-gateway.js';
import type { WatcherMsg } from '../../messages/to-watcher.js';
import type { MainMsg } from '../../messages/to-main.js';

let notify: (m: MainMsg) => void = () => {};
import type { MutationResult, VaultOp } from '../../messages/vault-ops.js';
import { makeIgnore } from '../watcher/scan.js';
import { VaultWriter } from '../vault-writer/vault-writer.js';
import { GitRepo } from './git-repo.js';

const { b, board, log } = boot();
const cfg = b.config;
const w = cfg.writes;

const writes = new Counter<'op' | 'outcome'>({ name: 'memvault_writes_total', help: 'Agent mutations by operation and outcome (ok or reason code)', labelNames: ['op', 'outcome'] });
const phases = new Histogram<'phase'>({
  name: 'memvault_write_duration_seconds',
  help: 'Write latency by phase: file (validate + durable file), commit, total',
  labelNames: ['phase'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 1],
});
const commits = new Counter<'kind'>({ name: 'memvault_commits_total', help: 'Commits made, by kind (agent, undo, human)', labelNames: ['kind'] });
const undos = new Counter<'outcome'>({ name: 'memvault_undos_total', help: 'Undo requests by outcome', labelNames: ['outcome'] });

type State = { kind: 'ready'; repo: GitRepo; writer: VaultWriter } | { kind: 'off'; reason: string };

/** One git operation at a time: the quiet-period timer and message handlers share the repository. */
let chain: Promise<unknown> = Promise.resolve();
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const next = chain.then(fn, fn);
  chain = next.catch(() => {});
  return next;
}

const ignore = makeIgnore(cfg.watcher.ignore);
const humanPending = new Set<string>();
let humanTimer: NodeJS.Timeout | null = null;

async function noteState(rel: string): Promise<{ mtimeMs: number | null; contentHash: string | null }> {
  try {
    const abs = path.join(cfg.vault, rel);
    const [s, bytes] = await Promise.all([stat(abs), readFile(abs)]);
    return { mtimeMs: s.mtimeMs, contentHash: createHash('sha256').update(bytes).digest('hex') };
  } catch {
    return { mtimeMs: null, contentHash: null };
  }
}

function opPaths(op: VaultOp): string[] {
  return op.op === 'move' ? [op.from, op.to] : [op.path];
}

async function commitHuman(repo: GitRepo, paths: string[]): Promise<void> {
  const r = await repo.commitHumanChanges(paths);
  if (r.ok) {
    commits.inc({ kind: 'human' });
    notify({ type: 'main.committed', kind: 'human', sha: r.sha, paths: r.paths });
    log.info({ event: 'vault_human_commit', sha: r.sha, paths: r.paths }, 'committed edits made outside memvault');
  } else if (r.reason !== 'nothing_to_commit') log.warn({ event: 'vault_human_commit', reason: r.reason, detail: r.message }, 'could not commit edits made outside memvault');
}

async function mutate(s: Extract<State, { kind: 'ready' }>, op: VaultOp, caller: Extract<GitMsg, { type: 'git.mutate' }>['caller']): Promise<MutationResult> {
  const started = performance.now();
  // a person's uncommitted edit of the same note is committed first, as theirs: neither text is lost
  const touched = opPaths(op).filter((p) => humanPending.has(p.normalize('NFC')));
  if (touched.length) {
    for (const p of touched) humanPending.delete(p.normalize('NFC'));
    await commitHuman(s.repo, touched);
  }
  const applied = await s.writer.apply(op, caller);
  const fileDone = performance.now();
  phases.observe({ phase: 'file' }, (fileDone - started) / 1000);
  if (!applied.ok) return applied;
  const c = await s.repo.commit(applied.paths, { op: op.op, paths: applied.paths, agent: caller.agent, reason: caller.reason });
  phases.observe({ phase: 'commit' }, (performance.now() - fileDone) / 1000);
  phases.observe({ phase: 'total' }, (performance.now() - started) / 1000);
  if (!c.ok && c.reason !== 'nothing_to_commit')
    return fail('unavailable', `the note was written but git could not commit it (${c.message}); it is on disk — retry the write to record it`);
  if (c.ok) {
    commits.inc({ kind: 'agent' });
    notify({ type: 'main.committed', kind: 'agent', sha: c.sha, paths: applied.paths });
  }
  return { ok: true, op: op.op, paths: applied.paths, commit: c.ok ? c.sha : null, mtimeMs: applied.mtimeMs, contentHash: applied.contentHash };
}

runActor<GitMsg, GatewayMsg | WatcherMsg | MainMsg, State>(
  async (msg, ctx) => {
    const s = ctx.state;
    switch (msg.type) {
      case 'git.mutate': {
        const result: MutationResult =
          s.kind === 'off' ? fail('unavailable', s.reason) : await serial(() => mutate(s, msg.op, msg.caller));
        writes.inc({ op: msg.op.op, outcome: result.ok ? 'ok' : result.reason });
        log.info({ event: 'vault_write', op: msg.op.op, paths: opPaths(msg.op), agent: msg.caller.agent, outcome: result.ok ? 'ok' : result.reason, commit: result.ok ? result.commit : undefined }, 'vault write');
        // tell the watcher directly: OS events for a quick write-then-delete can coalesce into nothing
        if (result.ok) ctx.emit({ type: 'watcher.fs_events', paths: result.paths });
        ctx.emit({ type: 'gateway.mutation_result', requestId: msg.requestId, result });
        return;
      }
      case 'git.undo': {
        let result: MutationResult;
        if (s.kind === 'off') result = fail('unavailable', s.reason);
        else {
          const r = await serial(() => s.repo.undoLast({ agent: msg.req.onlyMine ? msg.req.agent : undefined, byAgent: msg.req.agent, reason: msg.req.reason }));
          if (r.ok) {
            commits.inc({ kind: 'undo' });
            notify({ type: 'main.committed', kind: 'undo', sha: r.sha, paths: r.paths });
            const first = r.paths[0];
            const st = first && r.paths.length === 1 ? await noteState(first) : { mtimeMs: null, contentHash: null };
            result = { ok: true, op: 'undo', paths: r.paths, commit: r.sha, ...st };
          } else result = r.reason === 'git_failed' ? fail('unavailable', r.message) : fail(r.reason, r.message);
        }
        undos.inc({ outcome: result.ok ? 'ok' : result.reason });
        log.info({ event: 'vault_undo', agent: msg.req.agent, outcome: result.ok ? 'ok' : result.reason, commit: result.ok ? result.commit : undefined }, 'vault undo');
        if (result.ok) ctx.emit({ type: 'watcher.fs_events', paths: result.paths });
        ctx.emit({ type: 'gateway.mutation_result', requestId: msg.requestId, result });
        return;
      }
      case 'git.worktree_changed': {
        if (s.kind === 'off') return;
        for (const p of msg.paths) if (!ignore(p, false)) humanPending.add(p.normalize('NFC'));
        if (humanPending.size === 0) return;
        if (humanTimer) clearTimeout(humanTimer);
        // after a quiet period, whatever is still uncommitted among these paths is a person's edit
        humanTimer = setTimeout(() => {
          humanTimer = null;
          const paths = [...humanPending];
          humanPending.clear();
          void serial(() => commitHuman(s.repo, paths));
        }, w.human_quiet_ms);
        return;
      }
      default:
        assertNever(msg);
    }
  },
  async (init) => {
    notify = init.emit;
    if (!w.enabled) {
      board.set('gitState', 5);
      return { kind: 'off', reason: 'writes are disabled in the configuration (writes.enabled: false)' };
    }
    board.set('gitState', 0);
    const repo = await GitRepo.open(cfg.vault, { author: w.author, person: w.person, onWarning: (m) => log.warn({ event: 'vault_git_warning' }, m) });
    if (!(repo instanceof GitRepo)) {
      board.set('gitState', repo.reason === 'git_missing' ? 2 : repo.reason === 'git_too_old' ? 3 : 4);
      log.error({ event: 'vault_git_unavailable', reason: repo.reason, detail: repo.message }, 'vault writes are off; search keeps working');
      return { kind: 'off', reason: `${repo.reason}: ${repo.message}` };
    }
    const writer = new VaultWriter({ root: cfg.vault, allowlist: w.allowlist, maxBytes: w.max_bytes });
    // notes edited while the daemon was down are a person's edits: record them before any agent writes
    const dirty = (await repo.dirtyPaths()).filter((p) => !ignore(p, false));
    if (dirty.length) await commitHuman(repo, dirty);
    board.set('gitState', 1);
    return { kind: 'ready', repo, writer };
  },
);
