// Prewarming starts an actor's thread ahead of its supervisor (the daemon loads every thread's modules at once),
// but the actor's init runs only when the supervisor starts it, on that same thread; a start that never comes
// ends the parked thread.
import t from 'tap';
import { startSupervisor } from '../../../supervisors/supervisor.js';
import { spawnTestActor } from '../helpers/test-actor.js';

// Node 20 has Atomics.waitAsync; the ES2023 lib in tsconfig does not declare it.
const waitAsync = (
  Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number): { value: Promise<string> | string } }
).waitAsync.bind(Atomics);

const LOADS = 0;
const INITS = 1;

/**
 * Resolves once counter `i` has reached `n` (awaited through Atomics, never polled). A parked thread does not keep
 * the process alive, nor does waitAsync: an idle interval does, meanwhile.
 */
async function reach(starts: SharedArrayBuffer, i: number, n: number): Promise<void> {
  const a = new Int32Array(starts);
  const alive = setInterval(() => {}, 60_000);
  try {
    for (let v = Atomics.load(a, i); v < n; v = Atomics.load(a, i)) await waitAsync(a, i, v).value;
  } finally {
    clearInterval(alive);
  }
}

t.test('a prewarmed thread waits, parked, and the supervisor start runs its init on it', async (t) => {
  const starts = new SharedArrayBuffer(8);
  const counts = new Int32Array(starts);
  const { handle, out } = spawnTestActor({ starts });
  handle.prewarm();
  handle.prewarm(); // a second call while one is warm starts nothing more
  await reach(starts, LOADS, 1);
  t.equal(Atomics.load(counts, INITS), 0, 'modules loaded, init not run while parked');
  t.equal(handle.send({ type: 'test.work', n: 1 }), true, 'mail sent meanwhile waits in the mailbox');

  const sup = await startSupervisor({
    id: 'sup',
    strategy: 'one_for_one',
    intensity: 1,
    periodMs: 10_000,
    children: [handle.childSpec({ shutdownMs: 1_000 })],
  });
  t.teardown(() => sup.stop('test over'));
  t.equal(Atomics.load(counts, INITS), 1, 'the start ran init');
  await handle.onIdle();
  t.same(out.ofType('test.done'), [{ type: 'test.done', n: 1, attempt: 1 }], 'and the parked mail was handled');
  t.equal(Atomics.load(counts, LOADS), 1, 'on the prewarmed thread: no second thread was started');
  handle.prewarm();
  t.equal(Atomics.load(counts, LOADS), 1, 'prewarm does nothing while an incarnation is live');
});

t.test('a prewarmed thread that is never started is ended by discardWarm', async (t) => {
  const starts = new SharedArrayBuffer(8);
  const { handle } = spawnTestActor({ starts });
  handle.prewarm();
  await reach(starts, LOADS, 1);
  await handle.discardWarm();
  const sup = await startSupervisor({
    id: 'sup',
    strategy: 'one_for_one',
    intensity: 1,
    periodMs: 10_000,
    children: [handle.childSpec({ shutdownMs: 1_000 })],
  });
  t.teardown(() => sup.stop('test over'));
  t.equal(Atomics.load(new Int32Array(starts), LOADS), 2, 'a later start spawns a fresh thread');
  t.equal(Atomics.load(new Int32Array(starts), INITS), 1, 'and inits it once');
});
