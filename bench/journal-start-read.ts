// What the memory actor's start spends reading the episode journal: the one read that fills the ownership ledger
// (who recorded what, before appends are taken) and gives the first replay its forgets — the replay read it again
// before — beside the reference of parsing the same files and nothing else.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/journal-start-read.js [--messages 50000] [--days 1] [--runs 5]
// Writes a journal of chat messages (realistic lengths, 40 to a session, one agent) spread over --days day files in a
// temp folder, then times, per checkpoint: the bare parse (Journal.read), and the start's read (scanJournal noting
// every record in an EpisodeOwners). "From nothing" is an index that holds none of them; "near the end" one whose
// checkpoint is 100 records from the end (a day file is parsed whole, whatever the checkpoint in it). Medians; prints
// a table and writes bench/results/journal-start-read.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Journal } from '../actors/memory/journal.js';
import { EpisodeOwners } from '../actors/memory/owners.js';
import { scanJournal } from '../actors/memory/replay.js';
import type { IndexReader } from '../actors/store-writer/index-reader.js';
import type { JournalCheckpoint } from '../messages/episodes.js';
import { intArg, machine, median, printTable, writeResults } from './harness.js';

const messages = intArg('messages', 50_000);
const days = intArg('days', 1);
const runs = intArg('runs', 5);

const WORDS = 'the glaze kiln fired at cone six and the celadon crazed along the rim while we talked about the next batch'.split(' ');
const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);

function writeJournal(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const perDay = Math.ceil(messages / days);
  let seq = 1;
  for (let d = 0; d < days; d++) {
    const lines: string[] = [];
    for (let i = 0; i < perDay && seq <= messages; i++, seq++) {
      const text = Array.from({ length: 20 + ((seq * 7919) % 120) }, (_, j) => WORDS[(seq + j) % WORDS.length]).join(' ');
      const rt = T0 + d * DAY_MS + i;
      const ep = {
        type: 'chat',
        session_id: `s${Math.floor(seq / 40)}`,
        message_id: `m${seq}`,
        role: seq % 2 ? 'user' : 'assistant',
        text,
      };
      lines.push(JSON.stringify({ k: 'ep', ep, at: rt, seq, rt, agent: 'agent-a' }));
    }
    writeFileSync(path.join(dir, `${new Date(T0 + d * DAY_MS).toISOString().slice(0, 10)}.jsonl`), `${lines.join('\n')}\n`);
  }
}

async function timed(fn: () => Promise<number>): Promise<{ ms: number; n: number }> {
  const s = performance.now();
  const n = await fn();
  return { ms: performance.now() - s, n };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-journal-bench-'));
  try {
    writeJournal(dir);
    const journal = Journal.open(dir, { wallNow: Date.now, readOnly: true });
    const last = journal.files().at(-1)!;
    const cases: Array<[string, JournalCheckpoint | null]> = [
      ['from nothing', null],
      ['near the end', { seq: Math.max(1, messages - 100), file: last }],
    ];
    const noIndex = (): IndexReader => {
      throw new Error('the bench notes records only');
    };
    const rows = [];
    for (const [name, cp] of cases) {
      const parse: number[] = [];
      const scan: number[] = [];
      let noted = 0;
      for (let r = 0; r < runs; r++) {
        parse.push(
          (
            await timed(async () => {
              let n = 0;
              for (const recs of journal.read(cp, journal.nextSeq)) n += recs.length;
              return n;
            })
          ).ms,
        );
        const s = await timed(async () => {
          const owners = new EpisodeOwners(noIndex);
          await scanJournal(journal, cp, journal.nextSeq, (rec) => owners.note(rec));
          return owners.size;
        });
        scan.push(s.ms);
        noted = s.n;
      }
      rows.push({ checkpoint: name, noted, parseMs: median(parse), startReadMs: median(scan) });
    }
    console.log(
      `\nThe memory actor's start over a journal of ${messages} chat messages in ${days} day file(s) (${runs} runs, medians; load ${machine().loadavg1m.toFixed(2)})\n`,
    );
    printTable(
      ['checkpoint', 'records noted', 'parse only (reference)', "start's read (ledger + forgets)"],
      rows.map((r) => [r.checkpoint, String(r.noted), `${r.parseMs.toFixed(1)} ms`, `${r.startReadMs.toFixed(1)} ms`]),
    );
    console.log("\nThe first replay read the same records again before (the start's read once more); it now takes the start's.");
    const out = writeResults('journal-start-read', { machine: machine(), messages, days, runs, rows });
    console.log(`\nwrote ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
