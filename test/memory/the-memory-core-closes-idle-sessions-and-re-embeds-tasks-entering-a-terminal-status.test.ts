// The memory core without a thread, time from a ManualClock: an idle session is closed after idle_close_s (the close
// is journaled, then applied), a task entering a terminal status asks for a fresh vector while a priority change
// re-embeds nothing, the same correction twice is one document, and a forgotten episode is skipped on replay.
import t from 'tap';
import { MemoryCore, type CoreDeps, type StoredTask } from '../../actors/memory/core.js';
import { taskVerbMatcher } from '../../actors/memory/chat.js';
import type { Work } from '../../actors/memory/work.js';
import { loadUseLiteTokenizer } from '../../actors/embedder/use-lite/tokenizer.js';
import type { Episode, JournalRecord } from '../../messages/episodes.js';
import { ManualClock } from '../helpers/manual-clock.js';

const tokens = loadUseLiteTokenizer();

function rig(stored: Record<string, StoredTask> = {}) {
  const clock = new ManualClock(0);
  let wall = 1_800_000_000_000;
  const work: Work[] = [];
  const closes: Array<{ session: string; why: string }> = [];
  let seq = 0;
  const deps: CoreDeps = {
    clock,
    wallNow: () => wall,
    storedTask: (id) => stored[id] ?? null,
    storedCorrection: () => false,
    storedTurn: () => null,
    close: (session, why) => void closes.push({ session, why }),
    work: (w) => void work.push(w),
  };
  const core = new MemoryCore(
    {
      chat: {
        indexRoles: new Set(['user', 'assistant']),
        minChars: 12,
        hasTaskVerb: taskVerbMatcher(['call']),
        maxTokens: 128,
        tokens,
      },
      idleCloseMs: 1_800_000,
      terminal: new Set(['done', 'cancelled']),
      maxSessionMessages: 5,
    },
    deps,
  );
  const rec = (e: JournalRecord extends infer R ? (R extends JournalRecord ? Omit<R, 'seq' | 'rt' | 'agent'> : never) : never) =>
    ({ ...e, seq: ++seq, rt: wall, agent: 'agent-1' }) as JournalRecord;
  const ep = (episode: Episode) => rec({ k: 'ep', ep: episode, at: wall });
  return {
    clock,
    core,
    work,
    closes,
    ep,
    rec,
    advanceWall: (ms: number) => (wall += ms),
    drain: () => work.splice(0),
  };
}

t.test('a session idle for idle_close_s is closed through the journal, and only then forgotten by the core', async (t) => {
  const r = rig();
  r.core.apply([r.ep({ type: 'chat', session_id: 's', message_id: '1', role: 'user', text: 'Please look at the budget sheet' })]);
  t.equal(r.core.openSessions, 1);
  r.clock.advance(1_799_999);
  t.same(r.closes, [], 'not a millisecond early');
  r.core.apply([r.ep({ type: 'chat', session_id: 's', message_id: '2', role: 'assistant', text: 'I will review it this afternoon' })]);
  r.clock.advance(1_799_999);
  t.same(r.closes, [], 'a new message restarts the wait');
  r.clock.advance(1);
  t.same(r.closes, [{ session: 's', why: 'idle' }], 'then the close is journaled');
  t.equal(r.core.openSessions, 1, 'the core drops the session only when the journaled close comes back');
  r.core.apply([r.rec({ k: 'close', session: 's', why: 'idle' })]);
  t.equal(r.core.openSessions, 0);
  t.equal(r.core.openLow(), null, 'nothing open holds the checkpoint back');
});

t.test('a session reaching its size cap is closed so memory stays bounded', async (t) => {
  const r = rig();
  for (let i = 0; i < 5; i++)
    r.core.apply([
      r.ep({
        type: 'chat',
        session_id: 'big',
        message_id: String(i),
        role: i % 2 ? 'assistant' : 'user',
        text: `message number ${i} of many`,
      }),
    ]);
  t.same(r.closes, [{ session: 'big', why: 'size' }]);
});

t.test('a task entering a terminal status asks for a fresh vector; priority and times never re-embed', async (t) => {
  const r = rig({ old: { hash: 'x', status: 'done' } });
  const base = { type: 'task' as const, task_id: 't1', title: 'Renew the passport', status: 'open' };
  r.core.apply([r.ep({ ...base, priority: 1 })]);
  const [first] = r.drain() as Array<Extract<Work, { op: 'upsert' }>>;
  t.equal(first!.fresh, false);
  r.core.apply([r.ep({ ...base, priority: 5 })]);
  const [second] = r.drain() as Array<Extract<Work, { op: 'upsert' }>>;
  t.equal(second!.doc.contentHash, first!.doc.contentHash, 'a priority change keeps the content hash');
  t.same(
    second!.doc.chunks.map((c) => c.hash),
    first!.doc.chunks.map((c) => c.hash),
    'and the chunks: their stored vectors are reused',
  );
  t.equal(second!.doc.metadata['priority'], 5, 'the new priority is in the metadata');
  r.core.apply([r.ep({ ...base, status: 'done' })]);
  const [done] = r.drain() as Array<Extract<Work, { op: 'upsert' }>>;
  t.equal(done!.fresh, true, 'open → done re-embeds, even if a vector of the same text exists');
  r.core.apply([r.ep({ ...base, status: 'done', notes: 'collected' })]);
  t.equal((r.drain()[0] as Extract<Work, { op: 'upsert' }>).fresh, false, 'done → done is no transition');
  r.core.apply([r.ep({ ...base, task_id: 'old', status: 'cancelled' })]);
  t.equal((r.drain()[0] as Extract<Work, { op: 'upsert' }>).fresh, false, 'the index already had it terminal (done → cancelled)');
  r.core.apply([r.ep({ ...base, event: 'delete' })]);
  t.same(r.drain(), [{ op: 'soft_delete', key: { sourceType: 'task', sourceId: 't1' } }], 'event delete soft-deletes');
});

t.test('the same correction id twice is one document; a forget skips what came before it on replay', async (t) => {
  const r = rig();
  const c = { type: 'correction' as const, correction_id: 'c1', field: 'city', original: 'Lisbon', corrected: 'Porto', input: 'offsite' };
  r.core.apply([r.ep(c), r.ep({ ...c, corrected: 'Faro' })]);
  const w = r.drain();
  t.equal(w.length, 1);
  t.match(
    (w[0] as Extract<Work, { op: 'upsert' }>).doc.chunks[0]!.content,
    'Field city changed from "Lisbon" to "Porto" on input: "offsite"',
  );

  const replay = rig();
  const recs = [
    replay.ep({ type: 'chat', session_id: 's', message_id: 'm1', role: 'user', text: 'my card number is 4111 1111 1111 1111' }),
    replay.ep({ type: 'chat', session_id: 's', message_id: 'm2', role: 'user', text: 'and my name is on the card too' }),
    replay.rec({ k: 'forget', id: 'chat:s:m1' }),
  ];
  replay.core.apply(recs, new Map([['chat:s:m1', recs[2]!.seq]]));
  const texts = replay
    .drain()
    .flatMap((x) => (x.op === 'upsert' ? x.doc.chunks.map((ch) => ch.content) : []))
    .join('\n');
  t.notMatch(texts, '4111', 'the forgotten message is never projected on replay');
  t.match(texts, 'my name is on the card');
});
