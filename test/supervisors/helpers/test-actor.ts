// Spawns the fixture test actor with a recorder for what it emits and a gate the test opens.
import { spawnActor, type ActorHandle, type SpawnActorOpts } from '../../../supervisors/runtime/host.js';
import type { ActorEvent } from '../../../messages/actor.js';
import type { TestActorData, TestIn, TestOut } from '../fixtures/test-actor.js';
import { EventLog } from './event-log.js';

export const testActorFile = new URL('../fixtures/test-actor.js', import.meta.url);

export interface TestActor {
  handle: ActorHandle<TestIn>;
  out: EventLog<TestOut>;
  events: EventLog<ActorEvent>;
  openGate(): void;
}

export function spawnTestActor(
  opts: Partial<Omit<SpawnActorOpts<TestOut>, 'onMessage' | 'events' | 'file' | 'workerData'>> & {
    concurrency?: number;
    starts?: SharedArrayBuffer;
  } = {},
): TestActor {
  const gate = new SharedArrayBuffer(4);
  const out = new EventLog<TestOut>();
  const events = new EventLog<ActorEvent>();
  const { concurrency, starts, ...rest } = opts;
  const data: TestActorData = { gate, ...(concurrency ? { concurrency } : {}), ...(starts ? { starts } : {}) };
  const handle = spawnActor<TestIn, TestOut>({
    id: 'test-actor',
    file: testActorFile,
    workerData: data,
    ...rest,
    onMessage: out.push,
    events: events.push,
  });
  return {
    handle,
    out,
    events,
    openGate() {
      const flag = new Int32Array(gate);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    },
  };
}
