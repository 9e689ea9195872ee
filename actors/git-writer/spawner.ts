// The asking side of the spawner process (see spawner-process.ts): commands go to one small child process that forks
// them, so the daemon's own memory is never write-protected by a fork. In a daemon's actor thread that is the daemon's
// spawner, forked by main (a child forked from a worker thread is never reaped once the thread ends: each actor restart
// left a defunct process); elsewhere (a CLI, a test) one of this thread's own, started on first use, again after it
// dies. Either way it holds the event loop open only while commands are running.
import { fork, type ChildProcess, type Serializable } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { isMainThread, workerData } from 'node:worker_threads';
import type { FastItem, FastRepo, FastResult } from './fast-commit.js';
import type { Identity } from './git-message.js';
import type { ActorBoot } from '../../supervisors/runtime/boot.js';
import { entry } from '../../supervisors/runtime/code-files.js';
import { readFrames, writeFrame } from './frames.js';

export interface SpawnRequest {
  id: number;
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, then closed; without it stdin is closed at once. */
  input?: string;
}

export type SpawnOutcome =
  | { kind: 'exit'; code: number | null; stdout: string; stderr: string }
  /** The command could not start (`code` ENOENT: no such program or cwd), or the spawner died under it. */
  | { kind: 'error'; code: string | null; message: string };

export type SpawnReply = SpawnOutcome & { id: number };

/** Agent commits made by the spawner's long-lived git processes for the repository at `root` (fast-commit.ts). */
export interface FastCommitRequest extends FastRepo {
  id: number;
  kind: 'fast_commit';
  items: FastItem[];
  who: Identity;
}

export type FastCommitOutcome = { kind: 'fast'; results: FastResult[] } | { kind: 'error'; code: string | null; message: string };
export type FastCommitReply = FastCommitOutcome & { id: number };

/** How this thread reaches its spawner: one it forked itself (over IPC), or the daemon's (over a socket). */
interface Line {
  send(msg: unknown): void;
  /** Held open only while commands run: an idle spawner must not keep its parent (a CLI, a test) alive. */
  hold(on: boolean): void;
  readonly pid: number | undefined;
}

type Reply = SpawnReply | FastCommitReply;

/** Forks the spawner process, as plain node: the flags and loaders this process runs with (a test runner's, --cpu-prof) are not its. */
export function forkSpawner(args: readonly string[] = [], stdio: Array<'ignore' | number> = []): ChildProcess {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  const file = entry('actors/git-writer/spawner-process.js');
  return fork(file, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc', ...stdio], execArgv: [], env, serialization: 'advanced' });
}

/** A spawner of this thread's own: fine for a CLI or a test, whose main thread reaps it (a worker thread's never is). */
function forkedLine(onReply: (r: Reply) => void, onGone: (why: string) => void): Line {
  const child = forkSpawner();
  child.on('message', onReply);
  child.on('exit', (code, signal) => onGone(`the spawner process exited (${signal ?? `code ${code}`}) while the command ran`));
  child.on('error', (err) => onGone(`the spawner process failed: ${err.message}`));
  return {
    send: (msg) => child.send(msg as Serializable),
    hold(on) {
      if (on) {
        child.ref();
        child.channel?.ref();
      } else {
        child.unref();
        child.channel?.unref();
      }
    },
    pid: child.pid,
  };
}

/**
 * Connection attempts refused, and their spacing: ~10 s for main to fork the spawner (as the ingest pipeline finishes
 * starting; again at most a second after one died).
 */
const RECONNECTS = 200;
const RECONNECT_MS = 50;

/**
 * The daemon's spawner, forked by main (main/spawner-host.ts), which reaps it; this thread only connects to it.
 * Commands are sent once the spawner has said it serves this connection (its first frame): a connection refused, or
 * one closed before that (a spawner killed and not yet gone still takes connections into its queue), delivered
 * nothing, so it is tried again until main has forked the spawner (the first, or a new one). After that, a spawner
 * that goes takes the commands it was sent with it.
 */
function socketLine(address: string, onReply: (r: Reply) => void, onGone: (why: string) => void): Line {
  let sock: Socket;
  let connected = false;
  let held = false;
  let tries = 0;
  const unsent: unknown[] = [];
  const open = (): void => {
    sock = connect(address);
    if (!held) sock.unref();
    readFrames(sock, (r) => {
      if (connected) return onReply(r as Reply);
      connected = true; // the spawner's first frame: it serves this connection
      for (const msg of unsent.splice(0)) writeFrame(sock, msg);
    });
    let failure = '';
    sock.on('error', (err) => (failure = err.message));
    sock.on('close', () => {
      if (connected) return onGone('the spawner process exited (its connection closed) while the command ran');
      if (++tries >= RECONNECTS) return onGone(`the daemon's spawner process could not be reached: ${failure}`);
      const again = setTimeout(open, RECONNECT_MS);
      if (!held) again.unref();
    });
  };
  open();
  return {
    send: (msg) => (connected ? writeFrame(sock, msg) : unsent.push(msg)),
    hold(on) {
      held = on;
      if (on) sock.ref();
      else sock.unref();
    },
    pid: undefined,
  };
}

/** In a daemon's actor thread: the address of the daemon's spawner (supervisors/runtime/boot.ts). */
const daemonSpawner: string | undefined = isMainThread ? undefined : (workerData as Partial<ActorBoot> | null)?.spawner;

class Spawner {
  readonly #line: Line;
  readonly #pending = new Map<number, (r: SpawnOutcome | FastCommitOutcome) => void>();
  #next = 1;
  #gone = false;

  constructor(onExit: () => void) {
    const onReply = (r: Reply): void => {
      const done = this.#pending.get(r.id);
      if (!done) return;
      this.#pending.delete(r.id);
      done(r);
      this.#hold();
    };
    const onGone = (why: string): void => {
      if (this.#gone) return;
      this.#gone = true;
      onExit();
      for (const done of this.#pending.values()) done({ kind: 'error', code: 'SPAWNER_EXITED', message: why });
      this.#pending.clear();
    };
    this.#line = daemonSpawner ? socketLine(daemonSpawner, onReply, onGone) : forkedLine(onReply, onGone);
    this.#hold();
  }

  run(req: Omit<SpawnRequest, 'id'>): Promise<SpawnOutcome> {
    return this.#ask({ ...req }) as Promise<SpawnOutcome>;
  }

  fastCommit(req: Omit<FastCommitRequest, 'id' | 'kind'>): Promise<FastCommitOutcome> {
    return this.#ask({ kind: 'fast_commit', ...req }) as Promise<FastCommitOutcome>;
  }

  #ask(req: Omit<SpawnRequest, 'id'> | Omit<FastCommitRequest, 'id'>): Promise<SpawnOutcome | FastCommitOutcome> {
    if (this.#gone) return Promise.resolve({ kind: 'error', code: 'SPAWNER_EXITED', message: 'the spawner process has exited' });
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#hold();
      this.#line.send({ id, ...req });
    });
  }

  get pid(): number | undefined {
    return this.#line.pid;
  }

  #hold(): void {
    this.#line.hold(this.#pending.size > 0);
  }
}

let current: Spawner | null = null;

function spawner(): Spawner {
  if (!current) {
    const s: Spawner = new Spawner(() => {
      if (current === s) current = null;
    });
    current = s;
  }
  return current;
}

/** Runs `file args` through the spawner process; never rejects. */
export function spawnVia(req: Omit<SpawnRequest, 'id'>): Promise<SpawnOutcome> {
  return spawner().run(req);
}

/** Commits through the spawner's long-lived git processes for that repository; never rejects. */
export function fastCommitVia(req: Omit<FastCommitRequest, 'id' | 'kind'>): Promise<FastCommitOutcome> {
  return spawner().fastCommit(req);
}

/** The spawner's process id (started if need be; unknown for the daemon's): tests check that commands really run under it. */
export function spawnerPid(): number | undefined {
  return spawner().pid;
}
