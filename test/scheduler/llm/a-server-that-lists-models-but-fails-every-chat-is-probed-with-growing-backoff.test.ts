// An endpoint whose GET /models answers while every chat call fails (a model the server cannot load) is probed with
// backoff that doubles to 5 min, as README says: each probe marks it ready, the owed work calls again and fails. It
// used to start the backoff afresh at every probe, so the state flipped ready ⇄ server_error every 30 s and the owed
// jobs' calls were repeated every 30 s for catch_up_hours. A call that is answered starts the backoff afresh.
import t from 'tap';
import { llmSchema } from '../../../config/schema-llm.js';
import { LlmClient } from '../../../actors/scheduler/llm/client.js';
import { LlmHealth, type LlmStateName } from '../../../actors/scheduler/llm/health.js';
import { FakeLlm } from '../../helpers/fake-llm.js';
import { ManualClock } from '../../helpers/manual-clock.js';

t.test('probes at 30 s, 60 s, 120 s … 5 min while chat keeps failing; 30 s again after an answered call', async (t) => {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  let chatOk = false;
  llm.respond(() => (chatOk ? { content: 'ok' } : { status: 500, body: 'model failed to load' }));
  const clock = new ManualClock(Date.parse('2026-11-22T22:30:00Z'));
  let waiting: { want: LlmStateName; resolve: () => void } | null = null;
  let owedCall: Promise<unknown> = Promise.resolve();
  const reached = (want: LlmStateName) => new Promise<void>((resolve) => (waiting = { want, resolve }));
  const client: LlmClient = new LlmClient(llmSchema.parse({ base_url: llm.url, models: { default: 'm' }, max_retries: 0 }), {
    onOutcome: (outcome, message) => health.observe(outcome, message),
  });
  const health: LlmHealth = new LlmHealth({
    client,
    clock,
    onChange: (state) => {
      // as the scheduler does: ready runs what is owed, which calls the model
      if (state === 'ready') owedCall = client.chat({ taskType: 'daily_reflection', messages: [{ role: 'user', content: 'reflect' }] });
      if (waiting?.want === state) waiting.resolve();
    },
  });
  t.teardown(() => health.stop());

  const down = reached('server_error');
  await health.start();
  await down;
  const waits: number[] = [];
  for (let i = 0; i < 6; i++) {
    const due = clock.pending()[0]! - clock.now();
    waits.push(due);
    const again = reached('server_error');
    clock.advance(due); // the probe: /models answers, ready, the owed call fails
    await again;
  }
  t.same(waits, [30_000, 60_000, 120_000, 240_000, 300_000, 300_000], 'doubling to 5 min, not 30 s each time');
  t.equal(llm.chats().length, 7, 'one failed call per probe, not one every 30 s');

  chatOk = true;
  const up = reached('ready');
  clock.advance(clock.pending()[0]! - clock.now());
  await up;
  await owedCall; // answered
  t.equal(health.state, 'ready');
  chatOk = false;
  const failedAgain = reached('server_error');
  void client.chat({ taskType: 'daily_reflection', messages: [{ role: 'user', content: 'reflect' }] });
  await failedAgain;
  t.equal(clock.pending()[0]! - clock.now(), 30_000, 'an answered call started the backoff afresh');
});
