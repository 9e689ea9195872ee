// The parent's side of the spawner process (see spawner-process.ts): commands go to one small child process that
// forks them, so the daemon's own memory is never write-protected by a fork. Started on first use, again after it
// dies; it holds the event loop open only while commands are running.
import { fork, type ChildProcess } from 'node:child_process';
import type { FastItem, FastResult } from './fast-commit.js';
import type { Identity } from './git-message.js';
import { entry } from '../../supervisors/runtime/code-files.js';

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
export interface FastCommitRequest {
  id: number;
  kind: 'fast_commit';
  root: string;
  gitDir: string;
  commonDir: string;
  objectsDir: string;
  indexFile: string;
  hexLen: number;
  env: NodeJS.ProcessEnv;
  items: FastItem[];
  who: Identity;
}

export type FastCommitOutcome = { kind: 'fast'; results: FastResult[] } | { kind: 'error'; code: string | null; message: string };
type FastCommitReply = FastCommitOutcome & { id: number };

class Spawner {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, (r: SpawnOutcome | FastCommitOutcome) => void>();
  #next = 1;
  #gone = false;

  constructor(onExit: () => void) {
    const file = entry('actors/git-writer/spawner-process.js');
    // execArgv: []: loaders and flags the daemon runs with (a test runner's, --cpu-prof) are not the spawner's
    const env = { ...process.env };
    delete env['NODE_OPTIONS'];
    this.#child = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [], env, serialization: 'advanced' });
    this.#child.on('message', (r: SpawnReply | FastCommitReply) => {
      const done = this.#pending.get(r.id);
      if (!done) return;
      this.#pending.delete(r.id);
      done(r);
      this.#refs();
    });
    const died = (why: string): void => {
      if (this.#gone) return;
      this.#gone = true;
      onExit();
      for (const done of this.#pending.values()) done({ kind: 'error', code: 'SPAWNER_EXITED', message: why });
      this.#pending.clear();
    };
    this.#child.on('exit', (code, signal) => died(`the spawner process exited (${signal ?? `code ${code}`}) while the command ran`));
    this.#child.on('error', (err) => died(`the spawner process failed: ${err.message}`));
    this.#refs();
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
      this.#refs();
      this.#child.send({ id, ...req });
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** An idle spawner must not keep its parent (a CLI, a test) alive. */
  #refs(): void {
    if (this.#pending.size > 0) {
      this.#child.ref();
      this.#child.channel?.ref();
    } else {
      this.#child.unref();
      this.#child.channel?.unref();
    }
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

/** The spawner's process id (started if need be): tests check that commands really run under it. */
export function spawnerPid(): number | undefined {
  return spawner().pid;
}
