// A vault of 30 glaze notes indexed by a daemon, with a task in its episode journal, the daemon stopped again: what
// the damaged-index tests damage (damageTable) and then expect back whole.
import { closeSync, openSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Test } from 'tap';
import { makeVault, startDaemon, testConfig } from '../../helpers/daemon.js';

export const GLAZE_NOTES: Record<string, string> = {};
for (let i = 0; i < 30; i++) GLAZE_NOTES[`Projects/p${i}.md`] = `# P${i}\n\nThe glaze batch g${i}q fires at cone six.\n`;

export async function indexedThenStopped(t: Test) {
  const v = makeVault(GLAZE_NOTES);
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  const e = await d.api('POST', '/v1/episodes', {
    episodes: [{ type: 'task', task_id: 'T-1', title: 'Order the kiln shelf q7q', status: 'open' }],
  });
  t.equal(e.status, 200, JSON.stringify(e.body));
  await d.daemon.whenCaughtUp();
  await d.stop();
  return { v, cfg };
}

/** Garbage over the pages of `table`'s b-tree root: the file still opens, reading that table fails. */
export function damageTable(file: string, table: string): void {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)'); // every page in the file itself, none newer in the WAL
  const root = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(table) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa7), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
}
