// Child specs backed by real worker threads (fixtures/commanded-worker) that a test can crash or stop on command.
import { Worker } from 'node:worker_threads';
import { toWireError } from '../../../messages/common.js';
import type { Child, ChildExit, ChildSpec, StartCtx } from '../../../supervisors/spec.js';
import type { Command } from '../fixtures/commanded-worker.js';

const fixture = new URL('../fixtures/commanded-worker.js', import.meta.url);

export interface TestChild extends Child {
  command(cmd: Command): void;
}

/** The live incarnation of each child, by id, as the test sees it. */
export type LiveChildren = Map<string, TestChild>;

export function startWorkerChild(id: string, ctx: StartCtx, live: LiveChildren): Promise<TestChild> {
  // execArgv: [] — the fixture needs none of the runner's --import module hooks; inherited, each one starts its own
  // hooks thread and a worker took ~0.5 s to start instead of 60 ms (8 starts timed a test out on a busy CI machine).
  const worker = new Worker(fixture, { workerData: { id }, execArgv: [] });
  let error: ChildExit | undefined;
  let terminated = false;
  worker.on('error', (err) => (error ??= { kind: 'crash', error: toWireError(err) }));
  const exited = new Promise<ChildExit>((resolve) =>
    worker.on('exit', (code) =>
      resolve(
        terminated
          ? { kind: 'killed' }
          : (error ?? (code === 0 ? { kind: 'normal' } : { kind: 'crash', error: { kind: 'exit_code', message: `code ${code}` } })),
      ),
    ),
  );
  const child: TestChild = {
    exited,
    command: (cmd) => worker.postMessage(cmd),
    async stop() {
      worker.postMessage('stop');
      const timer = ctx.clock.setTimeout(() => {
        terminated = true;
        void worker.terminate();
      }, ctx.shutdownMs);
      await exited;
      ctx.clock.clearTimeout(timer);
    },
  };
  return new Promise((resolve, reject) => {
    worker.once('message', () => {
      live.set(id, child);
      resolve(child);
    });
    void exited.then((e) => reject(new Error(`${id} exited before ready: ${e.kind}`)));
  });
}

export function workerChild(
  id: string,
  live: LiveChildren,
  opts: Partial<Pick<ChildSpec, 'restart' | 'shutdownMs' | 'backoff'>> = {},
): ChildSpec {
  return {
    id,
    start: (ctx) => startWorkerChild(id, ctx, live),
    restart: opts.restart ?? 'permanent',
    shutdownMs: opts.shutdownMs ?? 5_000,
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
  };
}
