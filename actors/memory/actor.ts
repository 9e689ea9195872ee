// The memory actor (worker thread): owns the episode journal — an append is answered only once it is fsync'd —
// and projects it into the index through the core (core.ts) and the projector (projector.ts). On start, and when
// the index file is swapped or rebuilt, it replays the journal from the checkpoint the index records.
import path from 'node:path';
import { runActor } from '../../supervisors/runtime/worker.js';
import { boot, indexFile } from '../../supervisors/runtime/boot.js';
import { monotonicMs, systemClock } from '../../supervisors/clock.js';
import { assertNever, fail } from '../../messages/common.js';
import { CHECKPOINT_KEY, episodeId, type JournalRecord } from '../../messages/episodes.js';
import type { MemoryMsg } from '../../messages/to-memory.js';
import { ACTORS, type Asks, type Sends } from '../../supervisors/actors.js';
import type { InitCtx } from '../../supervisors/runtime/worker.js';
import { damagedIndexMet, type Rebuild } from '../store-writer/damage-rebuild.js';
import { openIndex } from '../store-writer/schema.js';
import { IndexReader } from '../store-writer/index-reader.js';
import { providerSettings, tokenCounterFor } from '../embedder/factory.js';
import { taskVerbMatcher, type ChatSettings } from './chat.js';
import { MemoryCore } from './core.js';
import { dayOf, Journal } from './journal.js';
import { Projector } from './projector.js';
import { forgetChatWork, readCheckpoint, resolveForget, staleTurnWork } from './index-side.js';
import { EpisodeOwners } from './owners.js';
import { FactLogs } from './facts.js';
import { memoryPaths } from './paths.js';
import { memoryMetrics } from './metrics.js';
import { poolEmbedder } from './pool-embedder.js';
import { replayJournal, scanJournal, type Scanned } from './replay.js';
import { sweepOnce, SweepTimer, type SweepDeps } from './sweep.js';

const { b, board, log } = boot();
const cfg = b.config;
// a reindex builds another index file with a one-shot pipeline while the daemon runs: it reads the journal only
const live = b.mode === 'serve' || b.dbFile === indexFile(cfg);

type Ctx = InitCtx<Sends<'memory'>, Asks<'memory'>>;

interface State {
  /**
   * Resolves once the tokenizer is loaded and the core and fact logs exist (the parts below it are set then): init
   * returns before that, so the daemon is ready without waiting on it; appends are journaled and held meanwhile.
   */
  ready: Promise<void>;
  /**
   * Resolves once the ledger of who recorded what holds the journal from the index's checkpoint on: appends wait for
   * it. What that read gathered spares the first replay a read of its own.
   */
  owned: Promise<Scanned>;
  facts: FactLogs;
  core: MemoryCore;
  projector: Projector;
  journal: Journal;
  chat: ChatSettings;
}

let db = openIndex(b.dbFile, { readonly: true, cacheMiB: 4 });
let reader = new IndexReader(db, { userId: cfg.user_id });
let generation = board.get('indexGeneration');
let replaying = true;
/**
 * Replays begun: a rescan's replay supersedes one still running (it reset the core that one applied to, and the index
 * it projected into is gone), which stops at its next step, so the journal is replayed once into the index in use.
 */
let replays = 0;
/** Who recorded each episode accepted from the index's checkpoint on, indexed yet or not (the ownership checks). */
const owners = new EpisodeOwners(() => reader);
const metrics = memoryMetrics(() => owners.size);
/** Records made durable while a replay runs: applied, in order, once it is done. */
const held: JournalRecord[] = [];
/** Main's rebuild, asked for by a damaged page (set at init: it needs the request). */
let askRebuild: (() => ReturnType<Rebuild>) | null = null;
const damagedIndexMetHere = damagedIndexMet(b.mode === 'serve', log, ' (episodes are projected into the new file once it is swapped in)');

/**
 * Whether `err` is a damaged page of the index file met while serving: then main is asked to rebuild the index (built
 * beside, swapped in; the memory.rescan after the swap replays the journal into the new file). The actor went down on
 * it instead, and its replay at each restart met the page again until the swap: a rebuild longer than a few seconds
 * outlasted the ingest supervisor's restart intensity. A one-shot run (itself a build) goes down as before.
 */
function damagedIndex(err: unknown, step: string): boolean {
  return askRebuild !== null && damagedIndexMetHere(err, askRebuild, { actor: 'memory', step });
}

/** Fact log work, one step at a time (a sync reads the log and the index, then queues its diff). */
let factChain: Promise<unknown> = Promise.resolve();
function facts<T>(fn: () => Promise<T>): Promise<T> {
  const next = factChain.then(fn, fn);
  factChain = next.catch(
    (err: unknown) =>
      damagedIndex(err, 'fact log') ||
      log.error({ event: 'memory_ingest_failed', source_type: 'fact', err: String(err) }, 'fact log step failed'),
  );
  return next;
}
/** Changed memory files seen on disk, gathered for a debounce window (an editor saves in several steps). */
const changedPaths = new Set<string>();
let changedTimer: NodeJS.Timeout | null = null;

function reopenReader(): void {
  db.close();
  db = openIndex(b.dbFile, { readonly: true, cacheMiB: 4 });
  reader = new IndexReader(db, { userId: cfg.user_id });
  generation = board.get('indexGeneration');
}

const embedder = poolEmbedder(b.port, cfg, (detail) =>
  log.warn({ event: 'embedder_unavailable', detail }, 'episodes are indexed keyword-only'),
);

function report(ctx: Ctx, pending: number, oldest: number | null): void {
  board.set('memoryPending', pending);
  board.set('memoryOldestPendingAt', oldest ?? 0);
  board.set('memoryReplaying', replaying ? 1 : 0);
  ctx.emit({ type: 'main.memory_state', pending, replaying });
}

/** Applies durable records now, or after the replay when one runs (records are applied in seq order). */
function onDurable(s: State, records: JournalRecord[]): void {
  for (const r of records) owners.note(r);
  if (replaying) held.push(...records);
  else s.core.apply(records);
}

/** The sweep's dependencies for this incarnation (the store writer prunes; the journal drops old days). */
function sweepDeps(ctx: Ctx, s: State): SweepDeps {
  return {
    cfg,
    journal: s.journal,
    live,
    prune: (cutoffs) => ctx.request({ type: 'store.prune_episodes', cutoffs }, null),
    wallNow: Date.now,
    done: (r) => {
      for (const [type, n] of Object.entries(r.removed)) metrics.pruned.inc({ source_type: type }, n);
      log.event('memory_pruned', { removed: r.removed, journal_files_dropped: r.journal_files_dropped });
    },
  };
}

/**
 * Replays the journal (replay.ts; appends are held meanwhile), syncs the fact logs, then — appends flowing again —
 * removes turns a crash left half-grown and runs a retention sweep. A replay a later one supersedes stops at its next
 * step and leaves the rest to it.
 */
async function replay(ctx: Ctx, s: State, reason: string, scanned?: Scanned): Promise<void> {
  const run = ++replays;
  const current = () => run === replays;
  replaying = true;
  report(ctx, s.projector.pending, s.projector.oldestSince);
  const started = monotonicMs();
  const r = await replayJournal({
    journal: s.journal,
    core: s.core,
    projector: s.projector,
    reader,
    held,
    seen: (rec) => owners.note(rec),
    scanned,
    current,
  });
  if (r === null) return;
  await facts(() => s.facts.reconcile());
  if (!current()) return;
  s.projector.hold(1); // still catching up (stale turns, the sweep) once appends flow again
  replaying = false;
  try {
    await s.projector.drained(); // every batch sent before is applied (the store's mailbox is in order)
    // superseded meanwhile: the stretches are this core's no more, the new replay checks its own and sweeps
    if (!current()) return;
    for (const w of staleTurnWork(reader, s.core, r.stretches)) s.projector.push(w, { seq: 0, rt: 0 });
    // a sweep after every replay: what a reindex or a long stop brought back past its retention goes at once
    if (live) await sweepOnce(sweepDeps(ctx, s));
  } finally {
    s.projector.hold(-1);
  }
  report(ctx, s.projector.pending, s.projector.oldestSince);
  log.event('memory_replayed', { reason, from: r.from, records: r.records, ms: Math.round(monotonicMs() - started) });
}

function diskFailure(err: unknown): ReturnType<typeof fail<'unavailable' | 'disk_full'>> {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return fail('disk_full', `the data dir's disk is full (${code}): nothing was journaled; free some space, then retry`);
  return fail(
    'unavailable',
    `the episode journal could not be written (${(err as Error)?.message ?? String(err)}); nothing was journaled — retry`,
  );
}

runActor<MemoryMsg, Sends<'memory'>, State, Asks<'memory'>>(
  async (msg, ctx) => {
    const s = ctx.state;
    // everything but journaling, pruning and the store's notices needs the core
    if (msg.type !== 'memory.append' && msg.type !== 'memory.prune' && msg.type !== 'memory.projected') await s.ready;
    switch (msg.type) {
      case 'memory.append': {
        if (!live) return ctx.reply(fail('unavailable', 'this process builds another index and does not take episodes'));
        await s.owned;
        // checked and entered in the ledger in the same step the journal numbers them: no other append comes between
        const firstSeq = s.journal.nextSeq;
        const refused = owners.admit(
          msg.episodes.map((e) => e.ep),
          msg.agent,
          firstSeq,
          msg.guard,
        );
        const taken = msg.episodes.filter((_, i) => !refused.includes(i));
        if (taken.length === 0) return ctx.reply({ ok: true, accepted: 0, ids: [], first_seq: 0, last_seq: 0, refused });
        try {
          const recs = await s.journal.append(
            taken.map((e) => ({ k: 'ep', ep: e.ep, at: e.at })),
            msg.agent,
          );
          for (const e of taken) metrics.ingested.inc({ source_type: e.ep.type });
          ctx.reply({
            ok: true,
            accepted: recs.length,
            ids: recs.map((r) => (r.k === 'ep' ? episodeId(r.ep) : '')),
            first_seq: recs[0]?.seq ?? 0,
            last_seq: recs.at(-1)?.seq ?? 0,
            refused,
          });
        } catch (err) {
          taken.forEach((e, i) => owners.unnote(e.ep, firstSeq + i));
          log.error({ event: 'memory_ingest_failed', reason: 'journal', err: String(err) }, 'episodes could not be journaled');
          ctx.reply(diskFailure(err));
        }
        return;
      }
      case 'memory.close_session': {
        if (!live) return ctx.reply(fail('unavailable', 'this process builds another index and does not take episodes'));
        const open = s.core.session(msg.session) !== null;
        try {
          await s.journal.append([{ k: 'close', session: msg.session, why: 'closed' }], msg.agent);
          ctx.reply({ ok: true, closed: open });
        } catch (err) {
          ctx.reply(diskFailure(err));
        }
        return;
      }
      case 'memory.forget_episode': {
        if (!live) return ctx.reply(fail('unavailable', 'this process builds another index and does not take episodes'));
        await s.owned;
        const ids = resolveForget(reader, s.core, msg.id, (id) => owners.holds(id));
        if (ids.length === 0)
          return ctx.reply(
            fail('not_found', `no episode has the id "${msg.id}" (ids look like chat:<session>:<message>, task:<id>, correction:<id>)`),
          );
        // after not_found: every agent may search every episode, so saying which ids exist tells it nothing new
        if (msg.guard && owners.soleRecorder(msg.id) !== msg.agent)
          return ctx.reply(
            fail(
              'forbidden',
              msg.id.startsWith('chat:')
                ? `episode ${msg.id} is in a chat session another agent spoke in; only an admin credential may forget it`
                : `episode ${msg.id} was recorded by another agent; only an admin credential may forget it`,
            ),
          );
        try {
          await s.journal.append(
            ids.map((id) => ({ k: 'forget', id })),
            msg.agent,
          );
          for (const id of ids) metrics.tombstones.inc({ source_type: id.slice(0, id.indexOf(':')) });
          log.event('memory_forget', { ids, agent: msg.agent });
          // answered once search no longer finds it (a turn it held is rebuilt without it)
          if (!replaying) await s.projector.applied();
          ctx.reply({ ok: true, forgotten: ids });
        } catch (err) {
          ctx.reply(diskFailure(err));
        }
        return;
      }
      case 'memory.prune':
        ctx.reply(await sweepOnce(sweepDeps(ctx, s)));
        return;
      case 'memory.projected': {
        s.projector.projected(msg.batch);
        // what the index's checkpoint has passed, the index answers for
        const cp = owners.size > 0 ? readCheckpoint(reader) : null;
        if (cp) owners.dropBefore(cp.seq);
        // every record before `through` has all its work in the index (the core applied it, nothing of it is pending)
        if (!s.core) return;
        const through = Math.min(s.projector.lowestSeq ?? Number.POSITIVE_INFINITY, s.core.applied.seq + 1);
        s.core.settled(through);
        owners.settled(through);
        return;
      }
      case 'memory.facts_appended':
        await facts(() => s.facts.appended(msg.path));
        return;
      case 'memory.fs_events': {
        if (msg.from === 'git') {
          // the git writer's own change (a forget, an undo): read at once, the caller is waiting to see it
          await facts(() => s.facts.changed(msg.paths));
          return;
        }
        for (const p of msg.paths) changedPaths.add(p);
        if (changedTimer !== null) return;
        s.projector.hold(1); // pending until read: whenCaughtUp and status see the change coming
        changedTimer = setTimeout(() => {
          changedTimer = null;
          const paths = [...changedPaths];
          changedPaths.clear();
          void facts(() => s.facts.changed(paths)).finally(() => s.projector.hold(-1));
        }, cfg.watcher.debounce_ms);
        return;
      }
      case 'memory.rescan':
        s.projector.reset();
        s.core.reset();
        reopenReader();
        // in the background, like the first replay: appends are held meanwhile, the stall watchdog is not kept waiting
        void replay(ctx, s, msg.reason).catch((err: unknown) =>
          process.nextTick(() => {
            throw err;
          }),
        );
        return;
      default:
        assertNever(msg);
    }
  },
  async (init) => {
    const ctx = init;
    askRebuild = () => init.request({ type: 'main.reindex' }, null);
    report(ctx, 0, null);
    const c = cfg.episodes.chat;
    const state = {} as State;
    state.journal = Journal.open(path.join(cfg.data_dir, 'episodes'), {
      wallNow: Date.now,
      readOnly: !live,
      onDurable: (records) => onDurable(state, records),
      onRepair: (file, bytes) =>
        log.warn({ event: 'memory_journal_repaired', file, bytes }, 'cut off a torn last line (never acknowledged)'),
    });
    // episodes journaled before this start and not in the index yet are still their agents' (a restart must not free them)
    state.owned = scanJournal(state.journal, readCheckpoint(reader), state.journal.nextSeq, (r) => owners.note(r));
    state.projector = new Projector({
      embedder,
      reuse: (hashes) => reader.vectorsByChunkHash(hashes),
      send: (batch) => ctx.emit({ type: 'store.episodes', batch }),
      generation: () => generation,
      checkpoint: (queuedLow) => {
        const cands = [state.core.openLow(), queuedLow, { seq: state.core.applied.seq + 1, rt: state.core.applied.rt }];
        const low = cands.reduce((a, x) => (x && (!a || x.seq < a.seq) ? x : a), null as { seq: number; rt: number } | null)!;
        return [{ key: CHECKPOINT_KEY, value: JSON.stringify({ seq: low.seq, file: low.rt > 0 ? `${dayOf(low.rt)}.jsonl` : '' }) }];
      },
      forgetChat: (items) => forgetChatWork(reader, state.core, state.chat, items),
      halt: (err) => damagedIndex(err, 'projection'),
      failed: (sourceType, reason, detail) => {
        metrics.failed.inc({ source_type: sourceType, reason });
        board.add('episodesFailed', 1);
        log.event('memory_ingest_failed', { source_type: sourceType, reason, detail });
      },
      embedded: (sourceType, n) => metrics.embedded.inc({ source_type: sourceType }, n),
      changed: (pending, oldest) => report(ctx, pending, oldest),
      now: monotonicMs,
    });
    state.ready = (async () => {
      const { counter: tokens } = await tokenCounterFor(providerSettings(cfg));
      const chat: ChatSettings = {
        indexRoles: new Set(c.index_roles),
        minChars: c.min_chars,
        hasTaskVerb: taskVerbMatcher(c.task_verbs),
        maxTokens: cfg.chunker.max_tokens ?? tokens.maxTokens,
        tokens,
      };
      state.chat = chat;
      state.facts = new FactLogs({
        vault: cfg.vault,
        paths: memoryPaths(cfg.memory.folder),
        reader: () => reader,
        work: (w) => state.projector.push(w, { seq: 0, rt: Date.now() }),
        tokens,
        maxTokens: chat.maxTokens,
        wallNow: Date.now,
      });
      state.core = new MemoryCore(
        {
          chat,
          idleCloseMs: c.idle_close_s * 1000,
          terminal: new Set(cfg.episodes.task.reindex_on_status),
          maxSessionMessages: 2_000,
        },
        {
          clock: systemClock,
          wallNow: Date.now,
          storedTask: (id) => {
            const d = reader.document('task', id);
            return d ? { hash: d.contentHash, status: String(d.metadata['status'] ?? '') } : null;
          },
          storedCorrection: (id) => reader.document('correction', id) !== null,
          storedTurn: (id) => {
            const d = reader.document('chat', id);
            const seg = d?.metadata['segment'];
            return d ? { segment: typeof seg === 'number' ? seg : null, hash: d.contentHash } : null;
          },
          close: live
            ? (session, why) =>
                void state.journal
                  .append([{ k: 'close', session, why }], 'memvault')
                  .catch((err: unknown) =>
                    log.error({ event: 'memory_ingest_failed', reason: 'journal', err: String(err) }, 'could not journal a session close'),
                  )
            : null,
          work: (w, rec) => state.projector.push(w, rec),
        },
      );
    })();
    // the journal replays in the background: appends are taken (and held) meanwhile, searches answer from the index
    const timer = new SweepTimer(sweepDeps(ctx, state), (err) =>
      log.error({ event: 'memory_pruned', err: String(err) }, 'the retention sweep failed; retrying in an hour'),
    );
    void state.ready
      .then(async () => {
        const scanned = await state.owned;
        // a rescan that came first replays already, from the new index's checkpoint: the journal is replayed once
        if (replays === 0) await replay(ctx, state, 'start', scanned);
      })
      .then(
        () => timer.arm(),
        (err: unknown) =>
          process.nextTick(() => {
            throw err; // a replay that fails is a bug: the actor restarts and replays again
          }),
      );
    return state;
  },
  { concurrency: ACTORS.memory.concurrency },
);
