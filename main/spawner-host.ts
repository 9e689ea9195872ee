// The daemon's spawner process (actors/git-writer/spawner-process.ts), which runs every git command its actors ask
// for. Main forks it, so main reaps it: a child forked from a worker thread was never reaped once that thread ended,
// and each restart of an actor that had run git left a defunct process. The actors reach it straight over a socket,
// not through main, so a write's commit never waits on main's thread. Main makes the listening socket and hands it
// to the process it forks: a thread may connect from that moment on, and the spawner answers once it is up (before
// the first fork, and between a death and the next, a connection is refused and the thread tries again). A spawner
// that exits is forked again at the same address (after a second when it lived less than one).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { forkSpawner } from '../actors/git-writer/spawner.js';
import type { EventLogger } from '../supervisors/runtime/log.js';

const QUICK_DEATH_MS = 1_000;

export class SpawnerHost {
  /** An abstract socket (Linux): no file to leave behind; gone with the last process holding it. */
  readonly address = `\0memvault-spawner-${process.pid}-${randomBytes(6).toString('hex')}`;
  readonly #log: EventLogger;
  #child: ChildProcess | null = null;
  #exited: Promise<void> = Promise.resolve();
  #stopping = false;
  #again: NodeJS.Timeout | null = null;
  #started = false;
  readonly #forked = new Set<(pid: number | undefined) => void>();

  constructor(log: EventLogger) {
    this.#log = log;
  }

  /** Forks the spawner unless it was already (until then a thread's connection is refused, and it tries again). */
  start(): void {
    if (this.#started || this.#stopping) return;
    this.#started = true;
    this.#tryFork();
  }

  /** Forks the spawner with a socket listening at `address`; throws when the socket cannot be made. */
  #fork(): void {
    if (this.#stopping) return;
    const server = createServer().on('error', () => {}); // a failed listen leaves no handle: thrown below
    server.listen(this.address); // a local socket is bound and listening when listen() returns
    const fd = (server as unknown as { _handle?: { fd?: number } })._handle?.fd;
    let child: ChildProcess;
    try {
      if (fd === undefined || fd < 0) throw new Error(`could not listen for the spawner at ${JSON.stringify(this.address)}`);
      child = forkSpawner(['--listen-fd', '4'], [fd]); // fd 4: after stdin, stdout, stderr and the IPC channel
    } finally {
      server.close(); // before main's loop turns: main never accepts; the socket lives on in the child
    }
    const born = Date.now();
    this.#child = child;
    for (const l of this.#forked) l(child.pid);
    // it must not keep main alive: stop() ends it, and it exits by itself when main goes
    child.unref();
    child.channel?.unref();
    this.#exited = new Promise((resolve) => {
      let gone = false;
      const ended = (fields: Record<string, unknown>): void => {
        if (gone) return;
        gone = true;
        resolve();
        if (this.#child === child) this.#child = null;
        if (this.#stopping) return;
        const lived = Date.now() - born;
        this.#log.event('spawner_exited', { ...fields, lived_ms: lived });
        this.#forkLater(lived >= QUICK_DEATH_MS ? 0 : QUICK_DEATH_MS);
      };
      child.on('exit', (code, signal) => ended({ code, signal }));
      // an 'error' with a pid is a failed signal or message, not an end; without one the fork itself failed
      child.on('error', (err) => (child.pid === undefined ? ended({ message: err.message }) : undefined));
    });
  }

  /** Forks a new spawner after `ms`. */
  #forkLater(ms: number): void {
    this.#again = setTimeout(() => {
      this.#again = null;
      this.#tryFork();
    }, ms);
    this.#again.unref();
  }

  /** Forks the spawner; one that cannot be forked is tried again a second later. */
  #tryFork(): void {
    try {
      this.#fork();
    } catch (err) {
      this.#log.event('spawner_exited', { message: (err as Error).message, lived_ms: 0 });
      this.#forkLater(QUICK_DEATH_MS);
    }
  }

  /** Calls `listener` with each spawner's process id as it is forked; returns the unsubscribe. */
  onFork(listener: (pid: number | undefined) => void): () => void {
    this.#forked.add(listener);
    return () => this.#forked.delete(listener);
  }

  /** The running spawner's process id. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Ends the spawner and waits until main has reaped it. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#again) clearTimeout(this.#again);
    this.#child?.ref(); // held until it has exited, or this process could end before reaping it
    this.#child?.kill('SIGTERM');
    await this.#exited;
  }
}
