// The projector without a thread: a step whose index read fails (the vector lookup by chunk hash over a damaged page)
// takes the memory actor down, and its restart replays from the index's checkpoint. Its failed run was followed at
// once by the next one (a fact log's stat queued meanwhile), whose batch recorded the checkpoint past the failed
// episode before the thread died: the episode, journaled and answered, was never indexed. Nothing is sent after a
// failed step now. A failure its actor has in hand (a damaged index being rebuilt: halt) holds the projector still,
// with nothing sent, until the reset that follows the swap.
import t from 'tap';
import { Projector } from '../../actors/memory/projector.js';
import type { EpisodeBatch } from '../../messages/episodes.js';
import type { Work } from '../../actors/memory/work.js';

const damaged = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
const model = { provider: 'test', name: 'test', version: '1', dim: 2 };
const chunk = { seq: 0, content: 'Sweep the kiln room', headingPath: [], startLine: 1, endLine: 1, tokenCount: 4, hash: 'h1' };
const task: Work = {
  op: 'upsert',
  fresh: false,
  doc: {
    sourceType: 'task',
    sourceId: 'T-2',
    uri: null,
    title: 'Sweep the kiln room',
    contentHash: 'c1',
    metadata: {},
    tags: [],
    atMs: 0,
    receivedAt: 0,
    chunks: [chunk],
  },
};

t.test('a projection step that fails sends nothing after it, so no checkpoint passes its work', async (t) => {
  const sent: EpisodeBatch[] = [];
  const p = new Projector({
    embedder: async () => ({ embed: async (texts: string[]) => texts.map(() => new Float32Array(2)), model }),
    reuse: () => {
      throw damaged;
    },
    send: (b) => sent.push(b),
    generation: () => 1,
    // as the memory actor's: the lowest seq still queued, else past everything the core applied (seq 2 here)
    checkpoint: (queuedLow) => [{ key: 'episodes_checkpoint', value: String(queuedLow?.seq ?? 3) }],
    forgetChat: () => [],
    halt: () => false,
    failed: () => {},
    embedded: () => {},
    changed: () => {},
    now: () => 0,
  });
  const failure = new Promise<unknown>((resolve) => process.once('unhandledRejection', resolve));
  p.push(task, { seq: 2, rt: 1 });
  // a fact log's stat, queued while the episode's step runs (the replay's fact log sync)
  p.push({ op: 'meta', key: 'fact_log:Memory/tombstones.jsonl', value: null }, { seq: 0, rt: 0 });
  t.equal(await failure, damaged, 'the step fails with the index error (the thread goes down on it)');
  await new Promise((r) => setImmediate(r)); // whatever ran on after the failure has sent by now
  t.same(
    sent.map((b) => b.meta),
    [],
    'no batch was sent after it: no checkpoint passes the episode it failed on',
  );
});

t.test('a failure the actor has in hand holds the projector still, nothing sent, until its reset', async (t) => {
  const sent: EpisodeBatch[] = [];
  const halted: unknown[] = [];
  let damagedNow = true;
  const p = new Projector({
    embedder: async () => ({ embed: async (texts: string[]) => texts.map(() => new Float32Array(2)), model }),
    reuse: () => {
      if (damagedNow) throw damaged;
      return new Map();
    },
    send: (b) => sent.push(b),
    generation: () => 1,
    checkpoint: (queuedLow) => [{ key: 'episodes_checkpoint', value: String(queuedLow?.seq ?? 3) }],
    forgetChat: () => [],
    halt: (err) => halted.push(err) > 0,
    failed: () => {},
    embedded: () => {},
    changed: () => {},
    now: () => 0,
  });
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  process.on('unhandledRejection', onUnhandled);
  t.teardown(() => process.off('unhandledRejection', onUnhandled));
  p.push(task, { seq: 2, rt: 1 });
  p.push({ op: 'meta', key: 'fact_log:Memory/tombstones.jsonl', value: null }, { seq: 0, rt: 0 });
  while (halted.length === 0) await new Promise((r) => setImmediate(r));
  p.push({ op: 'meta', key: 'fact_log:Memory/2026-11-29.md', value: null }, { seq: 0, rt: 0 });
  await new Promise((r) => setImmediate(r));
  t.same(halted, [damaged], 'the failure went to the actor');
  t.same(sent, [], 'nothing was sent while held, work pushed meanwhile neither');
  t.ok(p.pending > 0, 'the work is still pending');
  // the swap's rescan: reset, then the replay queues the journal's work again, read from the new file
  damagedNow = false;
  p.reset();
  p.push(task, { seq: 2, rt: 1 });
  while (sent.length === 0) await new Promise((r) => setImmediate(r)); // the test's timeout ends it if never
  t.same(sent[0]!.meta, [{ key: 'episodes_checkpoint', value: '3' }], 'after the reset the work is sent, its checkpoint with it');
  t.same(unhandled, [], 'the actor was not taken down');
});
