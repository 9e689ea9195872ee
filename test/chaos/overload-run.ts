// The long overload run for `make chaos`: `node dist/test/chaos/overload-run.js [notes] [agents]` (default 10,000
// notes, 8 agents) prints progress, a table a person can read and the report as JSON; exits 1 on any problem.
import { runOverload, type OverloadReport } from './overload.js';

function table(r: OverloadReport, ms: number): string {
  const rows: Array<[string, string]> = [
    ['notes dropped', String(r.notes)],
    ['drop indexed after', `${(r.catchUpMs / 1000).toFixed(1)} s`],
    ['RSS baseline → peak', `${r.baselineRssMB} → ${r.peakRssMB} MB`],
    [
      'peak mailbox',
      Object.entries(r.peakMailbox)
        .map(([a, n]) => `${a} ${n}`)
        .join(', '),
    ],
    ['searches (showing pending)', `${r.searches} (${r.searchesShowingPending}), errors ${r.searchErrors}`],
    ['search p50 / p99', `${r.searchP50Ms} / ${r.searchP99Ms} ms`],
    ['writes ok / busy / timed out', `${r.writesOk} / ${r.writesBusy} / ${r.writesTimedOut} of ${r.writes}`],
    ['write p50 / p99', `${r.writeP50Ms} / ${r.writeP99Ms} ms`],
    ['problems', r.problems.length === 0 ? 'none' : r.problems.join('; ')],
    ['run took', `${(ms / 1000).toFixed(0)} s`],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n');
}

const notes = Number(process.argv[2] ?? 10_000);
const agents = Number(process.argv[3] ?? 8);
if (!Number.isInteger(notes) || notes < 1 || !Number.isInteger(agents) || agents < 0) {
  console.error('usage: overload-run.js [notes: a positive integer] [agents: 0 or more]');
  process.exit(2);
}
const started = performance.now();
const r = await runOverload({ notes, agents, log: (l) => console.log(`${new Date().toISOString().slice(11, 19)} ${l}`) });
console.log(table(r, performance.now() - started));
console.log(JSON.stringify(r));
process.exit(r.problems.length === 0 ? 0 : 1);
