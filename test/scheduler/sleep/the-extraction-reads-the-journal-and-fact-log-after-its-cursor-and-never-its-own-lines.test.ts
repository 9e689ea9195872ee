// What the nightly extraction reads (actors/scheduler/sleep/material.ts), on a real episode journal written by the
// memory actor's Journal class and a real fact log on disk: chat messages grouped by session in time order (user and
// assistant only; a re-sent message once), tasks at their last state (deleted ones gone), no corrections, nothing
// forgotten; a first run looks back 24 hours; the cursor picks up exactly after the last record and the last facts
// read; a torn last line is left for next time; the extraction's own memories are never material but are known.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import type { JournalEntry } from '../../../messages/episodes.js';
import { localDay } from '../../../actors/memory/fact-log.js';
import { Journal } from '../../../actors/memory/journal.js';
import { memoryPaths } from '../../../actors/memory/paths.js';
import { readMaterial, SLEEP_WHO } from '../../../actors/scheduler/sleep/material.js';
import { EMPTY_SLEEP } from '../../../actors/scheduler/sleep/state.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-26T03:15:00Z');

function rig(t: { teardown(fn: () => unknown): void }) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-sleep-mat-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dataDir = path.join(root, 'data');
  const vault = path.join(root, 'vault');
  mkdirSync(path.join(vault, 'Memory', 'Log'), { recursive: true });
  let wall = NOW - 30 * HOUR;
  const journal = Journal.open(path.join(dataDir, 'episodes'), { readOnly: false, wallNow: () => wall });
  t.teardown(() => journal.close());
  return {
    dataDir,
    vault,
    at(ms: number) {
      wall = ms;
    },
    append: (entries: JournalEntry[]) => journal.append(entries, 'agent-1'),
    read: (cursor = EMPTY_SLEEP, now = NOW) => readMaterial({ dataDir, vault, memory: memoryPaths('Memory'), tz: 'UTC', now }, cursor),
    log(date: string, text: string) {
      writeFileSync(path.join(vault, 'Memory', 'Log', `${date}.md`), text);
    },
  };
}

const chat = (session: string, id: string, role: 'user' | 'assistant' | 'system', text: string, at: number): JournalEntry => ({
  k: 'ep',
  ep: { type: 'chat', session_id: session, message_id: id, role, text },
  at,
});

t.test('sessions, tasks and the fact log since the look-back; the cursor then reads only what is new', async (t) => {
  const r = rig(t);
  await r.append([chat('old', 'm1', 'user', 'Too old to read on a first run.', NOW - 30 * HOUR)]);
  r.at(NOW - 2 * HOUR);
  await r.append([
    chat('b', 'm1', 'user', 'Second session, first message.', NOW - 90 * 60_000),
    chat('a', 'm2', 'assistant', 'Lisbon it is, then.', NOW - 100 * 60_000),
    chat('a', 'm1', 'user', 'Should we move the offsite to Lisbon?', NOW - 110 * 60_000),
    chat('a', 'sys', 'system', 'You are a helpful assistant.', NOW - 111 * 60_000),
    chat('a', 'm2', 'assistant', 'Lisbon it is — booked.', NOW - 99 * 60_000),
    { k: 'ep', ep: { type: 'task', task_id: 'T-1', title: 'Book flights', status: 'open' }, at: NOW - 80 * 60_000 },
    { k: 'ep', ep: { type: 'task', task_id: 'T-1', title: 'Book flights', status: 'done', deadline: '2026-11-30' }, at: NOW - 70 * 60_000 },
    { k: 'ep', ep: { type: 'task', task_id: 'T-2', title: 'Scrapped idea', status: 'open' }, at: NOW - 60 * 60_000 },
    { k: 'ep', ep: { type: 'task', task_id: 'T-2', title: 'Scrapped idea', status: 'open', event: 'delete' }, at: NOW - 59 * 60_000 },
    {
      k: 'ep',
      ep: { type: 'correction', correction_id: 'C-1', field: 'iban', original: 'x', corrected: 'y', input: 'form' },
      at: NOW - 50 * 60_000,
    },
    chat('c', 'm1', 'user', 'My PIN is 4417, forget it.', NOW - 40 * 60_000),
    { k: 'forget', id: 'chat:c:m1' },
  ]);
  const today = localDay(NOW).date;
  r.log(
    today,
    `# ${today}\n\n## 01:00 — agent-1\n- [learning] Started a Portuguese course\n\n## 03:00 — ${SLEEP_WHO}\n- [work] An earlier extraction's memory\n`,
  );

  const m = await r.read();
  t.same(
    m.items.map((i) => i.label),
    [
      'Conversation a (2026-11-26 01:25 – 2026-11-26 01:36)',
      'Conversation b (2026-11-26 01:45 – 2026-11-26 01:45)',
      'Task T-1 (2026-11-26 02:05)',
      `Fact log ${today}`,
    ],
    'sessions by first message, then tasks, then the fact log; nothing older than a day, no deleted task, no correction, nothing forgotten',
  );
  t.equal(
    m.items[0]!.text,
    'user: Should we move the offsite to Lisbon?\nassistant: Lisbon it is — booked.',
    'in time order, re-sent once, no system',
  );
  t.ok(m.items[0]!.interactive && m.items[1]!.interactive && !m.items[2]!.interactive && !m.items[3]!.interactive);
  t.equal(m.items[2]!.text, 'Book flights (done, due 2026-11-30)', 'the task at its last state');
  t.equal(m.items[3]!.text, '- 01:00 [learning] Started a Portuguese course', 'not its own memory');
  t.ok(m.logged.has("an earlier extraction's memory"), 'which is known, so it is not written again');
  t.same(m.counts, { sessions: 2, messages: 3, tasks: 1, facts: 1 });
  t.match(m.cursor, { episodes: { seq: 13, file: /\.jsonl$/ }, facts: { date: today } });
  t.equal(m.cursor.facts!.ids.length, 2);

  // the next run: only what came since
  r.at(NOW + HOUR);
  await r.append([chat('a', 'm3', 'user', 'And book the hotel.', NOW + HOUR)]);
  r.log(
    today,
    `# ${today}\n\n## 01:00 — agent-1\n- [learning] Started a Portuguese course\n\n## 03:00 — ${SLEEP_WHO}\n- [work] An earlier extraction's memory\n\n## 04:00 — agent-1\n- Hotel near the river\n`,
  );
  const next = await r.read({ ...m.cursor, lastRun: new Date(NOW).toISOString() }, NOW + 2 * HOUR);
  t.same(
    next.items.map((i) => [i.label.split(' (')[0], i.text]),
    [
      ['Conversation a', 'user: And book the hotel.'],
      [`Fact log ${today}`, '- 04:00 Hotel near the river'],
    ],
  );
  t.equal(next.cursor.episodes!.seq, 14);

  // a line being written when the run reads is not read, and the cursor stops before it
  appendFileSync(path.join(r.dataDir, 'episodes', next.cursor.episodes!.file), '{"k":"ep","ep":{"type":"chat"');
  const torn = await r.read({ ...next.cursor, lastRun: null }, NOW + 3 * HOUR);
  t.same(torn.items, []);
  t.same(torn.cursor.episodes, next.cursor.episodes);
});

t.test('no journal and no fact log: nothing to read, the cursor unchanged', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-sleep-none-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const m = await readMaterial({ dataDir: root, vault: root, memory: memoryPaths('Memory'), tz: 'UTC', now: NOW }, EMPTY_SLEEP);
  t.same(m.items, []);
  t.same(m.cursor, { episodes: null, facts: null });
});
