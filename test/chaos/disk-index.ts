// The index file deleted under a running daemon (`rm <data dir>/index.sqlite*`): main notices within about a second,
// makes a fresh index, the store writer and the gateway reopen it, and the watcher's rescan rebuilds it from the
// vault — searches keep answering meanwhile with the pending work shown. Measures detection and rebuild time.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { until } from './lib/daemon-process.js';
import { Checks, logEvents, makeRig, restarts, searchOk, settle, type DiskClockReport } from './disk-common.js';

const NOTES = 120;

export async function runIndexDeleted(): Promise<DiskClockReport> {
  const c = new Checks();
  const files: Record<string, string> = {};
  for (let i = 0; i < NOTES; i++)
    files[`Projects/note-${i}.md`] = `# Note ${i}\n\nThe lighthouse log entry number ${i} mentions tide ${i * 7}.\n`;
  const rig = makeRig(files);
  const d = rig.daemon;
  try {
    await d.start();
    await d.caughtUp();
    const before = await settle(rig, 30_000);
    c.add('index_deleted.baseline_matches', before.length === 0, before.join('; ') || `${NOTES} notes indexed`);

    const db = path.join(rig.dataDir, 'index.sqlite');
    const t0 = performance.now();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    await until(
      'the daemon to log index_file_lost',
      10_000,
      async () => (logEvents(rig.logFile, 'index_file_lost').length > 0 ? true : undefined),
      20,
    );
    const detectMs = performance.now() - t0;
    c.add('index_deleted.detected', detectMs < 2_500, `index_file_lost logged ${Math.round(detectMs)} ms after the delete`, detectMs);
    // searches answer meanwhile, with the rebuild's pending work visible
    const s = await searchOk(d, 'lighthouse');
    c.add(
      'index_deleted.search_answers_meanwhile',
      s.status === 200 && typeof s.body.index?.pending === 'number',
      `HTTP ${s.status}, ${s.body?.results?.length} results, pending ${s.body?.index?.pending}, documents ${s.body?.index?.documents}`,
    );
    const t1 = performance.now();
    const after = await settle(rig, 60_000);
    const rebuildMs = performance.now() - t1;
    const st = (await d.api('GET', '/v1/status')).body?.index;
    c.add(
      'index_deleted.rebuilt_from_vault',
      after.length === 0 && st?.documents === NOTES,
      `${after.join('; ') || 'index = vault'}; status documents ${st?.documents}`,
      rebuildMs,
    );
    // and it keeps working: a new note lands in the rebuilt index, and the gateway reads that index (the old,
    // unlinked file it had open would never show this note)
    rig.vault.write('Projects/late.md', '# Late\n\nwritten after the rebuild about quinces\n');
    const late = await settle(rig, 15_000);
    c.add('index_deleted.new_notes_indexed_after', late.length === 0, late.join('; ') || 'index = vault');
    const s2 = await searchOk(d, 'quinces');
    c.add(
      'index_deleted.gateway_reads_new_index',
      s2.status === 200 && s2.body.results.some((r: { path: string }) => r.path === 'Projects/late.md'),
      `search after rebuild: ${s2.body?.results?.map((r: { path: string }) => r.path).join(', ') || 'nothing'}`,
    );
    const n = restarts(rig.logFile);
    c.add('index_deleted.no_actor_restarts', n === 0, `${n} actor exits logged`);
  } catch (err) {
    c.add('index_deleted.run', false, `threw: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await d.stop().catch(() => undefined);
    rig.vault.cleanup();
  }
  return c.report();
}
