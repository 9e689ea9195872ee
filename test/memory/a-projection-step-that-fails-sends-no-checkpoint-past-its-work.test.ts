// The projector without a thread: a step whose index read fails (the vector lookup by chunk hash over a damaged page)
// takes the memory actor down, and its restart replays from the index's checkpoint. Its failed run was followed at
// once by the next one (a fact log's stat queued meanwhile), whose batch recorded the checkpoint past the failed
// episode before the thread died: the episode, journaled and answered, was never indexed. Nothing is sent after a
// failed step now.
import t from 'tap';
import { Projector } from '../../actors/memory/projector.js';
import type { EpisodeBatch } from '../../messages/episodes.js';

t.test('a projection step that fails sends nothing after it, so no checkpoint passes its work', async (t) => {
  const sent: EpisodeBatch[] = [];
  const damaged = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
  const model = { provider: 'test', name: 'test', version: '1', dim: 2 };
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
    failed: () => {},
    embedded: () => {},
    changed: () => {},
    now: () => 0,
  });
  const failure = new Promise<unknown>((resolve) => process.once('unhandledRejection', resolve));
  const chunk = { seq: 0, content: 'Sweep the kiln room', headingPath: [], startLine: 1, endLine: 1, tokenCount: 4, hash: 'h1' };
  p.push(
    {
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
    },
    { seq: 2, rt: 1 },
  );
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
