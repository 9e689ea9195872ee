// Every actor in one table: its code, its mailbox and thread settings, its place in the supervision tree, and the
// messages it sends to whom — the pipeline as data. The router (main/router.ts) delivers only what an actor declared
// here, the trees (trees.ts) are built from it, each actor's `runActor` types come from it (an undeclared send does
// not compile), and the README's diagram is generated from it (pipelineDiagram). A new actor is one entry.
import path from 'node:path';
import type { MsgOf, MsgType, RequestType } from '../messages/index.js';
import { entry } from './runtime/code-files.js';

export interface ActorSpec {
  /** The compiled worker module, relative to this file's compiled location (dist/supervisors/). */
  readonly file: string;
  /** The folder a newcomer opens, and what the actor is for (the README diagram prints both). */
  readonly folder: string;
  readonly role: string;
  /**
   * 'root': a one_for_one child of the root; 'ingest': the rest_for_one pipeline under the root, where a restart
   * restarts every actor after it in the table. The root starts its children in table order, the pipeline as one
   * child where its first actor stands (see rootOrder).
   */
  readonly tree: 'root' | 'ingest';
  /** Runs in the one-shot `memvault index` too (false: only in `memvault start`). */
  readonly oneshot: boolean;
  /** Runs only when agents' writes are enabled (`writes.enabled`). */
  readonly needsWrites: boolean;
  /** Messages posted to the worker and not yet acked, at most (the host's window). */
  readonly window: number;
  /** Messages its handler works on at once (runActor's concurrency); at most `window` matters. */
  readonly concurrency: number;
  /** The stall watchdog's limit as a multiple of `supervisor.stall_ms`. */
  readonly stall: number;
  readonly shutdownMs: number;
  /** Gets a MessagePort to main's embedding pools (workerData.port). */
  readonly pools: boolean;
  /** The watcher's backpressure: notes admitted into the pipeline at once (the rest wait on disk). */
  readonly admit?: number;
  /** What it sends, and why; the destination is the name before the dot. */
  readonly sends: { readonly [T in MsgType]?: string };
  /** What it asks and awaits an answer to (the receiver answers with ctx.reply). */
  readonly requests: { readonly [T in RequestType]?: string };
}

export const ACTORS = {
  gateway: {
    file: '../actors/gateway/actor.js',
    folder: 'actors/gateway',
    role: 'HTTP JSON API, MCP at /mcp, agent tools; read-only index connection; queries embedded in main’s query pool',
    tree: 'root',
    oneshot: false,
    needsWrites: false,
    window: 8,
    concurrency: 1,
    stall: 1,
    shutdownMs: 5_000,
    pools: true,
    sends: {
      'watcher.rescan': 'POST /v1/reconcile (memvault backfill --source vault)',
      'git.worktree_rescan': 'POST /v1/reconcile: people’s edits git status shows, whatever events were missed',
    },
    requests: {
      'git.mutate': 'an agent’s write tool call',
      'git.undo': 'vault_undo_last',
      'main.metrics': 'GET /metrics: every thread’s registry, merged',
      'main.reindex': 'POST /v1/reindex',
      'main.supervision': 'GET /v1/status and the status page: the running supervision tree',
      'scheduler.run': 'POST /v1/jobs/<job>/run, memvault run',
      'scheduler.jobs': 'GET /v1/jobs',
      'memory.append': 'POST /v1/episodes: journaled (fsync) before the answer',
      'memory.close_session': 'POST /v1/episodes/sessions/<id>/close',
      'memory.forget_episode': 'memory_forget with an episode_id',
      'memory.prune': 'POST /v1/prune (memvault prune)',
      'git.remember': 'memory_remember: one fact line appended to today’s log, committed',
      'git.forget': 'memory_forget of a fact: a tombstone appended, committed',
      'scheduler.dream_status': 'GET /v1/dream, memvault dream status',
      'scheduler.consolidate': 'POST /v1/consolidate, memvault consolidate',
      'git.undo_run': 'memvault undo --run: every commit of one dream run reverted',
      'git.commit_person': 'a WebDAV PUT/DELETE/COPY/MOVE: committed at once as the WebDAV user',
    },
  },
  store: {
    file: '../actors/store-writer/actor.js',
    folder: 'actors/store-writer',
    role: 'the only write connection to the index; one transaction per message',
    tree: 'ingest',
    oneshot: true,
    needsWrites: false,
    window: 8,
    concurrency: 1,
    stall: 1,
    shutdownMs: 10_000,
    pools: false,
    sends: {
      'watcher.done': 'a path is settled: release its single flight',
      'gateway.indexed': 'read-your-writes: the index now holds this content',
      'watcher.rescan': 'the index was swapped or rebuilt: reconcile against it',
      'memory.projected': 'a projection batch is in the index',
      'memory.rescan': 'the index was swapped or rebuilt: replay the journal from its checkpoint',
    },
    requests: { 'main.reindex': 'the index file is damaged: rebuild it (built beside, swapped in)' },
  },
  embedder: {
    file: '../actors/embedder/actor.js',
    folder: 'actors/embedder',
    role: 'reuses vectors by chunk hash, micro-batches the rest into main’s piscina pool',
    tree: 'ingest',
    oneshot: true,
    needsWrites: false,
    window: 64,
    concurrency: 64,
    stall: 2, // a batch can legitimately take seconds on a loaded machine
    shutdownMs: 5_000,
    pools: true,
    sends: { 'store.upsert': 'the note with its chunks’ vectors' },
    requests: { 'main.reindex': 'a page of the index file is damaged: rebuild it (built beside, swapped in)' },
  },
  chunker: {
    file: '../actors/chunker/actor.js',
    folder: 'actors/chunker',
    role: 'frontmatter (yaml), markdown-it, heading-aware chunks sized in model tokens',
    tree: 'ingest',
    oneshot: true,
    needsWrites: false,
    window: 8,
    concurrency: 1,
    stall: 1,
    shutdownMs: 5_000,
    pools: false,
    sends: {
      'embedder.embed_note': 'a parsed note to embed',
      'store.touch': 'the bytes are unchanged: record the new stats',
      'store.file_failed': 'unreadable, too large, not UTF-8 …: the reason goes to file_status',
    },
    requests: {},
  },
  watcher: {
    file: '../actors/watcher/actor.js',
    folder: 'actors/watcher',
    role: 'stat-first reconcile, debounce, single flight per path, rename pairing',
    tree: 'ingest',
    oneshot: true,
    needsWrites: false,
    window: 8,
    concurrency: 1,
    stall: 1,
    shutdownMs: 5_000,
    pools: false,
    admit: 256,
    sends: {
      'chunker.file_changed': 'a new or changed note to read',
      'store.delete': 'a note is gone',
      'store.rename': 'a delete and an add of the same bytes: moved in place',
      'store.file_failed': 'a name or a symlink memvault will not index',
      'main.watcher_state': 'pending count and reconcile progress (whenCaughtUp, status)',
    },
    requests: {},
  },
  // last in the pipeline: a store restart restarts it too, and it replays the journal from the index's checkpoint
  memory: {
    file: '../actors/memory/actor.js',
    folder: 'actors/memory',
    role: 'episode journal (fsync before the answer), chat turns, tasks, corrections; projected into the index',
    tree: 'ingest',
    oneshot: true,
    needsWrites: false,
    window: 16,
    // appends wait on one shared fdatasync: several in the handler at once share it (group commit)
    concurrency: 16,
    stall: 2, // a projection step can wait on the model like the embedder does
    shutdownMs: 5_000,
    pools: true,
    sends: {
      'store.episodes': 'a projection step: episode documents with vectors, removals, the journal checkpoint',
      'main.memory_state': 'episodes pending and replay progress (whenCaughtUp, status)',
    },
    requests: {
      'store.prune_episodes': 'the retention sweep',
      'main.reindex': 'a page of the index file is damaged: rebuild it (built beside, swapped in)',
    },
  },
  git: {
    file: '../actors/git-writer/actor.js',
    folder: 'actors/git-writer',
    role: 'the one mutation path: validate, atomic write, one commit per change, undo, people’s edits',
    tree: 'root',
    oneshot: false,
    needsWrites: true,
    window: 16,
    concurrency: 16, // writes' commits overlap and are made in batches (actors/git-writer/actor.ts mutate)
    stall: 1,
    shutdownMs: 10_000,
    pools: false,
    sends: {
      'watcher.fs_events': 'the paths a write or undo touched (OS events for a quick write-then-delete can coalesce into nothing)',
      'main.committed': 'a commit was recorded (agent, undo or a person’s edit)',
      'memory.facts_appended': 'memory_remember’s line is committed: index just that line',
      'memory.fs_events': 'the fact log’s tombstones changed (forget, undo)',
    },
    requests: {},
  },
  // started last, after the ingest pipeline and the git writer: nothing waits for it, and what it drafts reads the index the pipeline
  // fills. Only with writes on (it writes notes). Runs take minutes (an LLM call each), so several requests are
  // served at once and a run reports progress to the stall watchdog.
  scheduler: {
    file: '../actors/scheduler/actor.js',
    folder: 'actors/scheduler',
    role: 'cron and interval jobs: skills draft notes with the LLM, written through the git writer',
    tree: 'root',
    oneshot: false,
    needsWrites: true,
    window: 8,
    concurrency: 8,
    stall: 1,
    shutdownMs: 5_000,
    pools: true,
    sends: {},
    requests: {
      'git.mutate': 'a skill’s note: one commit with a Memvault-Skill trailer; a dream page',
      'git.dream_journal': 'the dream’s watermark line in Memory/log.md',
      'git.dream_memory_md': 'MEMORY.md regenerated after a dream run',
      'git.remember': 'the nightly extraction’s memories: one fact-log line each, committed',
      'git.curation': 'USER.md and its audit line from a curation run, in one commit',
    },
  },
} as const satisfies Record<string, ActorSpec>;

/** What main itself sends and asks (the OS watcher, reindex, a poisoned note's failure). */
export const MAIN = {
  sends: {
    'watcher.fs_events': 'OS events on the vault (main owns the subscription, so events queue while the watcher restarts)',
    'watcher.rescan': 'the vault folder came back or new folders appeared',
    'git.worktree_changed': 'people’s edits on disk, committed as the person after a quiet period',
    'git.worktree_rescan': 'the vault watched afresh (new folders): edits whose events fell in between',
    'memory.fs_events': 'the fact log’s files changed on disk (day logs, tombstones)',
    'store.reopen_index': 'the index file was deleted under the daemon',
    'store.file_failed': 'a note crashed an actor three times (poison): marked failed so its flight ends',
  },
  requests: {
    'store.swap_index': 'reindex: swap the rebuilt index file in',
    'gateway.index_swapped': 'reindex: the swapped-in file is read from now on (the replaced one let go)',
    'embedder.index_swapped': 'reindex: the swapped-in file is read from now on (the replaced one let go)',
    'scheduler.index_swapped': 'reindex: the swapped-in file is read from now on (the replaced one let go)',
    'memory.append': 'memvault backfill without a daemon: episodes from a JSONL export',
    'memory.close_session': 'memvault backfill without a daemon: an exported conversation is over',
  },
} as const satisfies Pick<ActorSpec, 'sends' | 'requests'>;

export type RoutedActor = keyof typeof ACTORS;

/**
 * Pairs of actors whose requests to each other skip main: a MessagePort between their workers, made again whenever
 * either starts (main/peer-links.ts, supervisors/runtime/peers.ts). The gateway's writes reach the git writer in one
 * hop instead of two, and its answers come back the same way; requests still need declaring above.
 */
export const PEERS: ReadonlyArray<readonly [RoutedActor, RoutedActor]> = [['gateway', 'git']];
export const ACTOR_NAMES = Object.keys(ACTORS) as RoutedActor[];

type SendsOf<S> = S extends { sends: infer T } ? Extract<keyof T, MsgType> : never;
type AsksOf<S> = S extends { requests: infer T } ? Extract<keyof T, RequestType> : never;

/** The messages actor A may send (its runActor `Out` type). */
export type Sends<A extends RoutedActor> = MsgOf<SendsOf<(typeof ACTORS)[A]>>;
/** The requests actor A may make (`ctx.request`). */
export type Asks<A extends RoutedActor> = MsgOf<AsksOf<(typeof ACTORS)[A]>>;

/** The compiled worker module of an actor. */
export function workerFile(name: RoutedActor): URL {
  return entry(path.posix.join('supervisors', ACTORS[name].file));
}

/** Whether `from` declared `type` among its sends (or, with `request`, its requests). */
export function declared(from: RoutedActor | 'main', type: string, request = false): boolean {
  const spec: Pick<ActorSpec, 'sends' | 'requests'> = from === 'main' ? MAIN : ACTORS[from];
  return Object.hasOwn(request ? spec.requests : spec.sends, type);
}

/**
 * The root's children in start order: its own actors and the ingest pipeline (as 'ingest'), where the pipeline's
 * first actor stands in the table. The gateway comes first (after a restart it answers from the index at once), then
 * the pipeline, which catches up with the vault; then the git writer: agents' writes wait in its mailbox meanwhile,
 * and its start (a spawner process, the repository checks) stays off the catch-up's path; then the scheduler.
 */
export function rootOrder(): Array<RoutedActor | 'ingest'> {
  const out: Array<RoutedActor | 'ingest'> = [];
  for (const name of ACTOR_NAMES) {
    if (ACTORS[name].tree === 'root') out.push(name);
    else if (!out.includes('ingest')) out.push('ingest');
  }
  return out;
}

/** The README's picture of the trees and the pipeline, generated from the table (a test keeps the README in step). */
export function pipelineDiagram(): string {
  const specs = Object.entries(ACTORS) as Array<[RoutedActor, ActorSpec]>;
  const ingest = specs.filter(([, s]) => s.tree === 'ingest');
  // names padded to the longest and a space, so a longer actor name never runs into its folder
  const w = Math.max(...specs.map(([n]) => n.length), 'main'.length) + 1;
  const line = (prefix: string, name: RoutedActor) => `${prefix}${name.padEnd(w)}${ACTORS[name].folder.padEnd(21)}${ACTORS[name].role}`;
  const out = ['root (one_for_one; children started in this order)'];
  const order = rootOrder();
  order.forEach((child, i) => {
    const last = i === order.length - 1;
    if (child !== 'ingest') return out.push(line(last ? '└── ' : '├── ', child));
    out.push(`${last ? '└── ' : '├── '}ingest (rest_for_one: a restart restarts every actor after it)`);
    const indent = last ? '    ' : '│   ';
    ingest.forEach(([name], j) => out.push(line(`${indent}${j === ingest.length - 1 ? '└── ' : '├── '}`, name)));
  });
  out.push('', 'who sends what to whom (→ a message, ⇒ a request answered with ctx.reply)');
  const edges = (name: string, s: Pick<ActorSpec, 'sends' | 'requests'>): string[] => [
    ...Object.keys(s.sends).map((t) => `${name.padEnd(w)}→ ${t}`),
    ...Object.keys(s.requests).map((t) => `${name.padEnd(w)}⇒ ${t}`),
  ];
  for (const [name, s] of [...specs, ['main', MAIN] as const]) out.push(...edges(name, s));
  return out.join('\n');
}
