// The episode journal on a real folder: concurrent appends get increasing seqs in call order and share a write;
// each is handed to onDurable before its caller hears back; a line torn by a crash is cut off at the next open (it
// was never acknowledged) and seqs go on from the last whole line; files split by UTC day of receipt.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Journal } from '../../actors/memory/journal.js';
import type { JournalRecord } from '../../messages/episodes.js';

const DAY = 86_400_000;

t.test('appends are numbered in call order, made durable before they resolve, and read back in order', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-journal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let wall = Date.UTC(2026, 0, 1, 23, 59, 59, 900);
  const durable: number[] = [];
  const j = Journal.open(dir, { wallNow: () => wall, readOnly: false, onDurable: (rs) => durable.push(...rs.map((r) => r.seq)) });
  const calls = Array.from({ length: 50 }, (_, i) =>
    j.append([{ k: 'forget', id: `task:${i}` }], 'a').then((rs) => {
      t.ok(durable.includes(rs[0]!.seq), `seq ${rs[0]!.seq} was durable before its caller heard`);
      return rs[0]!.seq;
    }),
  );
  const seqs = await Promise.all(calls);
  t.same(
    seqs,
    Array.from({ length: 50 }, (_, i) => i + 1),
    'seqs follow call order',
  );
  wall += 200; // past midnight UTC
  await j.append([{ k: 'close', session: 's', why: 'closed' }], 'a');
  t.same(readdirSync(dir).sort(), ['2026-01-01.jsonl', '2026-01-02.jsonl'], 'one file per UTC day of receipt');
  const all: JournalRecord[] = [];
  for (const recs of j.read(null, j.nextSeq)) all.push(...recs);
  t.same(
    all.map((r) => r.seq),
    Array.from({ length: 51 }, (_, i) => i + 1),
  );
  const tail: JournalRecord[] = [];
  for (const recs of j.read({ seq: 49, file: '2026-01-01.jsonl' }, 51)) tail.push(...recs);
  t.same(
    tail.map((r) => r.seq),
    [49, 50],
    'a range from a checkpoint, excluding `until`',
  );
  await j.close();
});

t.test('a torn last line is cut off at open and numbering goes on from the last whole line', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-journal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const wall = Date.UTC(2026, 4, 1);
  const j = Journal.open(dir, { wallNow: () => wall, readOnly: false });
  await j.append(
    [
      { k: 'forget', id: 'task:a' },
      { k: 'forget', id: 'task:b' },
    ],
    'a',
  );
  await j.close();
  const file = path.join(dir, '2026-05-01.jsonl');
  appendFileSync(file, '{"k":"ep","ep":{"type":"chat","sess'); // a write cut short by kill -9
  const repaired: number[] = [];
  const again = Journal.open(dir, { wallNow: () => wall, readOnly: false, onRepair: (_f, bytes) => repaired.push(bytes) });
  t.same(repaired, [35], 'the torn bytes are cut off, and said so');
  t.equal(again.nextSeq, 3);
  await again.append([{ k: 'forget', id: 'task:c' }], 'a');
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  t.same(
    lines.map((l) => (JSON.parse(l) as JournalRecord).seq),
    [1, 2, 3],
    'every line whole',
  );
  await again.close();
  t.equal(Journal.open(dir, { wallNow: () => wall + 400 * DAY, readOnly: true }).nextSeq, 4, 'a read-only open finds the same end');
  const ro = Journal.open(dir, { wallNow: () => wall, readOnly: true });
  await t.rejects(ro.append([{ k: 'forget', id: 'x:y' }], 'a'), /read-only/, 'and never writes');
});

t.test('dropBefore removes day files older than a day, never the one being written', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-journal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let wall = Date.UTC(2025, 0, 1);
  const j = Journal.open(dir, { wallNow: () => wall, readOnly: false });
  for (let i = 0; i < 4; i++) {
    await j.append([{ k: 'forget', id: `task:${i}` }], 'a');
    wall += 100 * DAY;
  }
  t.equal(j.dropBefore('2025-07-01'), 2);
  t.same(readdirSync(dir).sort(), ['2025-07-20.jsonl', '2025-10-28.jsonl']);
  await j.close();
});
