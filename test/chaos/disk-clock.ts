// Issue 4 part 5, disk and clock faults: runs the four scenarios (disk full during writes, the vault folder removed
// and recreated, the index file deleted while running, wall-clock jumps) against the real daemon process and
// returns every check with its figures — the data the chaos report prints and the four test files assert.
import type { DiskClockReport } from './disk-common.js';
import { runDiskFull } from './disk-full.js';
import { runVaultRemoved } from './disk-vault.js';
import { runIndexDeleted } from './disk-index.js';
import { runClockJumps } from './clock-jumps.js';

export type { Check, DiskClockReport } from './disk-common.js';
export { runDiskFull, runVaultRemoved, runIndexDeleted, runClockJumps };

/** Runs the scenarios one after another (each on its own temp vault and daemon process). */
export async function runDiskClock(): Promise<DiskClockReport> {
  const out: DiskClockReport = { checks: [], problems: [] };
  for (const run of [runDiskFull, runVaultRemoved, runIndexDeleted, runClockJumps]) {
    const r = await run();
    out.checks.push(...r.checks);
    out.problems.push(...r.problems);
  }
  return out;
}

// `node dist/test/chaos/disk-clock.js` prints the table
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/dist\//, '/dist/'))) {
  const r = await runDiskClock();
  for (const c of r.checks)
    console.log(
      `${c.ok ? 'ok  ' : 'FAIL'} ${c.name.padEnd(58)} ${c.ms === undefined ? '' : `${c.ms} ms`.padStart(9)}  ${c.detail.slice(0, 140)}`,
    );
  console.log(JSON.stringify({ checks: r.checks.length, failed: r.problems.length }));
  process.exitCode = r.problems.length ? 1 : 0;
}
