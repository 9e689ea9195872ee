// A worker's crash reaches the host with its message and code whatever class its error is: Node clones a plain Error
// whole, but better-sqlite3's SqliteError (an Error subclass Node does not know) arrived as `{ code }` alone, so an
// index damaged on disk stopped the daemon with "worker exited during init (worker_error: [object Object])". One
// rejected in a step no handler awaits (the memory actor's projection) bypasses the runtime and still arrives so: it
// keeps its code, so main still sees a damaged index (SQLITE_CORRUPT) in it.
import t from 'tap';
import { ManualClock } from '../../helpers/manual-clock.js';
import type { SupervisorEvent } from '../../../supervisors/events.js';
import { startSupervisor } from '../../../supervisors/supervisor.js';
import { EventLog } from '../helpers/event-log.js';
import { spawnTestActor } from '../helpers/test-actor.js';

t.test("a SqliteError's crash keeps its message and code on the way to the host", { timeout: 20_000 }, async (t) => {
  const clock = new ManualClock();
  const sup$ = new EventLog<SupervisorEvent>();
  const { handle, events } = spawnTestActor({ clock, maxAttempts: 1 });
  const sup = await startSupervisor(
    { id: 'sup', strategy: 'one_for_one', intensity: 5, periodMs: 10_000, children: [handle.childSpec({ shutdownMs: 1_000 })] },
    { clock, events: sup$.push },
  );
  await handle.request({ type: 'test.sqlite_error' }, 60_000).catch(() => undefined);
  t.match(events.ofType('actor.poison'), [
    { actor: 'test-actor', error: { kind: 'SQLITE_ERROR', message: 'no such table: no_such_table' } },
  ]);
  t.match(events.ofType('actor.poison')[0]?.error.stack ?? '', /SqliteError: no such table/, 'its stack names its class');
  await sup.stop('test over');
});

t.test('a SqliteError rejected outside the handler keeps its code on the way to the host', { timeout: 20_000 }, async (t) => {
  const clock = new ManualClock();
  const sup$ = new EventLog<SupervisorEvent>();
  const { handle } = spawnTestActor({ clock, maxAttempts: 1 });
  const sup = await startSupervisor(
    { id: 'sup', strategy: 'one_for_one', intensity: 5, periodMs: 10_000, children: [handle.childSpec({ shutdownMs: 1_000 })] },
    { clock, events: sup$.push },
  );
  handle.send({ type: 'test.sqlite_error_unawaited' });
  const exited = await sup$.waitFor((e) => e.type === 'supervisor.child_exited');
  t.match(exited, { type: 'supervisor.child_exited', exit: { kind: 'crash', error: { kind: 'SQLITE_ERROR' } } }, JSON.stringify(exited));
  await sup.stop('test over');
});
