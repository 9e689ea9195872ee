// The dream gate, pure, on an injected clock: pending days stop before today in the scheduler's zone, a backlog is
// worked off one max_days batch per tick, the steady gate waits for min_hours and min_facts, a failed batch backs
// off and is skipped after max_retries, and the state file brings all of it back after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { afterAttempt, afterSkip, type DayFacts, decide, EMPTY_GATE, type GateState, pendingDays } from '../../actors/dream/gate.js';
import { DreamStateFile, EMPTY_STATE } from '../../actors/dream/state-file.js';

const cfg = { interval_s: 1800, max_days: 14, min_hours: 24, min_facts: 20, max_retries: 3 };
const H = 3_600_000;

function daysFrom(start: string, n: number, facts = 5): DayFacts[] {
  const t0 = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => ({ date: new Date(t0 + i * 24 * H).toISOString().slice(0, 10), facts }));
}

t.test("today's log is never pending, in the scheduler's zone", async (t) => {
  const days = daysFrom('2026-11-23', 3); // 23, 24, 25
  const late = Date.parse('2026-11-25T23:30:00Z'); // already the 26th in Berlin
  t.same(
    pendingDays(days, null, '2026-11-25').map((d) => d.date),
    ['2026-11-23', '2026-11-24'],
  );
  const utc = decide({ days, watermark: null, state: EMPTY_GATE, nowMs: late, tz: 'UTC', cfg: { ...cfg, min_facts: 1 } });
  t.match(utc, { kind: 'run', batch: ['2026-11-23', '2026-11-24'] }, 'in UTC the 25th is still today');
  const berlin = decide({ days, watermark: null, state: EMPTY_GATE, nowMs: late, tz: 'Europe/Berlin', cfg: { ...cfg, min_facts: 1 } });
  t.match(berlin, { kind: 'run', batch: ['2026-11-23', '2026-11-24', '2026-11-25'] }, 'in Berlin the 25th is over');
  const forced = decide({
    days: daysFrom('2026-11-25', 1),
    watermark: null,
    state: EMPTY_GATE,
    nowMs: late,
    tz: 'UTC',
    cfg,
    requested: true,
  });
  t.same(forced, { kind: 'idle', reason: 'nothing_pending', nextEligibleMs: null, pending: 0 }, 'a request does not take today either');
});

t.test('30 pending days with max_days 14 are consolidated in three ticks, oldest first', async (t) => {
  const days = daysFrom('2026-10-01', 30, 1); // few facts: the steady gate alone would never run
  let now = Date.parse('2026-11-25T12:00:00Z');
  let state: GateState = EMPTY_GATE;
  let watermark: string | null = null;
  const batches: string[][] = [];
  for (let tick = 0; tick < 6; tick++) {
    const d = decide({ days, watermark, state, nowMs: now, tz: 'UTC', cfg });
    if (d.kind !== 'run') {
      t.match(d, { kind: 'idle', reason: 'nothing_pending' });
      break;
    }
    t.equal(d.mode, 'sprint', `tick ${tick + 1} is a sprint`);
    batches.push(d.batch);
    const pendingBefore = pendingDays(days, watermark, '2026-11-25').length;
    state = afterAttempt(state, { key: d.key, nowMs: now, progress: true, pendingBefore, batchDays: d.batch.length, maxDays: 14 });
    watermark = d.batch[d.batch.length - 1]!;
    now += cfg.interval_s * 1000; // the next tick, half an hour later: well inside min_hours
  }
  t.same(
    batches.map((b) => b.length),
    [14, 14, 2],
  );
  t.equal(batches[0]![0], '2026-10-01');
  t.equal(batches[2]![1], '2026-10-30');
  t.equal(state.sprint, false, 'the sprint ends once nothing is pending');
});

t.test('the steady gate waits for min_hours since the last attempt and min_facts pending', async (t) => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const few = daysFrom('2026-11-20', 3, 5); // 15 facts
  t.match(decide({ days: few, watermark: null, state: EMPTY_GATE, nowMs: now, tz: 'UTC', cfg }), { kind: 'idle', reason: 'too_few_facts' });
  const enough = daysFrom('2026-11-20', 3, 7); // 21 facts
  t.match(decide({ days: enough, watermark: null, state: EMPTY_GATE, nowMs: now, tz: 'UTC', cfg }), { kind: 'run', mode: 'steady' });
  const recent = { ...EMPTY_GATE, lastAttemptMs: now - 23 * H };
  t.same(decide({ days: enough, watermark: null, state: recent, nowMs: now, tz: 'UTC', cfg }), {
    kind: 'idle',
    reason: 'too_soon',
    nextEligibleMs: now + H,
    pending: 3,
  });
  t.match(decide({ days: enough, watermark: null, state: recent, nowMs: now + H, tz: 'UTC', cfg }), { kind: 'run', mode: 'steady' });
  t.match(
    decide({ days: few, watermark: null, state: recent, nowMs: now, tz: 'UTC', cfg, requested: true }),
    { kind: 'run', mode: 'forced' },
    'a request bypasses the gate',
  );
});

t.test('a batch that made no progress backs off, and after three failures it is skipped', async (t) => {
  let now = Date.parse('2026-11-25T12:00:00Z');
  const days = daysFrom('2026-11-01', 20, 1); // a sprint: no steady gate in the way
  let state: GateState = EMPTY_GATE;
  for (let failure = 1; failure <= 3; failure++) {
    const d = decide({ days, watermark: null, state, nowMs: now, tz: 'UTC', cfg });
    t.match(d, { kind: 'run', key: '2026-11-01..2026-11-14' }, `attempt ${failure}`);
    state = afterAttempt(state, {
      key: '2026-11-01..2026-11-14',
      nowMs: now,
      progress: false,
      pendingBefore: 20,
      batchDays: 14,
      maxDays: 14,
    });
    t.equal(state.failures['2026-11-01..2026-11-14'], failure);
    const wait = cfg.interval_s * 1000 * 2 ** (failure - 1);
    if (failure < 3)
      t.match(decide({ days, watermark: null, state, nowMs: now + wait - 1, tz: 'UTC', cfg }), {
        kind: 'idle',
        reason: 'backing_off',
        nextEligibleMs: now + wait,
      });
    now += wait;
  }
  const d = decide({ days, watermark: null, state, nowMs: now, tz: 'UTC', cfg });
  t.same(d, { kind: 'skip', batch: daysFrom('2026-11-01', 14).map((x) => x.date), key: '2026-11-01..2026-11-14', failures: 3 });
  const after = afterSkip(state, '2026-11-01..2026-11-14', 6);
  t.same(after.failures, {}, 'the skipped batch leaves no failure count behind');
  t.match(decide({ days, watermark: '2026-11-14', state: after, nowMs: now, tz: 'UTC', cfg }), {
    kind: 'run',
    batch: daysFrom('2026-11-15', 6).map((x) => x.date),
  });
});

t.test('a restart keeps the last attempt, the failures and the sprint', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-dream-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const f = new DreamStateFile(dir);
  t.same(f.load(), EMPTY_STATE, 'no file: a fresh state');
  const s = {
    ...EMPTY_STATE,
    lastAttemptMs: 123,
    failures: { '2026-11-01..2026-11-14': 2 },
    sprint: true,
    running: { id: 'dream-x', batch: 'a..b' },
  };
  f.save(s);
  t.same(new DreamStateFile(dir).load(), s);
});
