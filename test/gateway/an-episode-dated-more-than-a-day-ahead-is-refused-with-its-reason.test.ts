// An episode has happened: one dated far ahead (a sender's clock years off, or epoch microseconds read as
// milliseconds) would sort last in its chat session for good and never expire. More than a day ahead of the
// daemon's clock is refused, item by item; a clock a few hours fast is not.
import t from 'tap';
import { checkEpisodes } from '../../actors/gateway/episode-schema.js';

const now = Date.parse('2026-11-29T12:00:00Z');
const chat = (message_id: string, at: unknown) => ({ type: 'chat', session_id: 's', message_id, role: 'user', text: 'hello there', at });

t.test('at more than a day ahead is refused with bad_request; within a day, and the past, are accepted', async (t) => {
  const r = checkEpisodes(
    {
      episodes: [
        chat('past', '2026-03-02T09:00:00Z'),
        chat('fast-clock', '2026-11-29T20:00:00Z'),
        chat('day-edge', now + 86_400_000),
        chat('far', '2099-01-01'),
        chat('micros', now * 1000),
        { type: 'task', task_id: 'T-1', title: 'Plan', status: 'open', at: '2027-01-01T00:00:00+01:00' },
      ],
    },
    { maxTextBytes: 10_000, now },
  );
  if (!r.ok) return t.fail(r.error.message);
  t.same(
    r.result.accepted.map((a) => a.i),
    [0, 1, 2],
  );
  t.same(
    r.result.rejected.map((x) => [x.i, x.reason]),
    [
      [3, 'bad_request'],
      [4, 'bad_request'],
      [5, 'bad_request'],
    ],
  );
  t.match(
    r.result.rejected[0]!.message,
    /episodes\[3\]: at 2099-01-01T00:00:00\.000Z is more than a day ahead of this machine's clock \(2026-11-29T12:00:00\.000Z\)/,
  );
  t.match(r.result.rejected[1]!.message, /epoch milliseconds, not microseconds/);
});
