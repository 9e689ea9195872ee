// A full data disk stalls indexing but loses nothing: the store keeps the work and says why in /v1/status,
// searches keep answering, and once space is freed every queued note is indexed.
import t from 'tap';
import { allZero, indexConsistency } from '../helpers/daemon.js';
import { until } from './lib/daemon-process.js';
import { tmpfsDaemon } from './lib/tmpfs-data-dir.js';

const STALL_MS = 1_000;

function note(tag: string, i: number): string {
  // a few KB of distinct text per note so the index must grow (SQLite reuses WAL space it already has)
  const body = Array.from({ length: 40 }, (_, k) => `Paragraph ${k} of ${tag} ${i}: tidal ${tag}${i}x${k} harbour ledger.`).join('\n\n');
  return `# ${tag} ${i}\n\nThe ${tag} note ${i} mentions lighthouse keeper ${tag}word${i}.\n\n${body}\n`;
}

t.test('a full disk holds indexing back without losing queued notes', { timeout: 180_000 }, async (t) => {
  const { v, data, d } = await tmpfsDaemon(
    t,
    { 'Inbox/base-0.md': note('base', 0), 'Inbox/base-1.md': note('base', 1) },
    `supervisor:\n  stall_ms: ${STALL_MS}\n`,
  );
  const storeExits: unknown[] = [];
  const exits: string[] = []; // every actor's, to say why if a note goes missing
  d.daemon.onSupervisor((e) => {
    if (e.type !== 'supervisor.child_exited') return;
    if (e.child === 'store') storeExits.push(e.exit);
    exits.push(`${e.child}: ${JSON.stringify(e.exit)}`);
  });
  const failed: string[] = [];
  d.daemon.onRouted((m) => {
    if (m.type === 'watcher.done' && m.outcome !== 'indexed') failed.push(`${m.path}: ${m.outcome}`);
  });
  await d.daemon.whenCaughtUp();
  const status = async () => (await d.api('GET', '/v1/status')).body.index;
  t.same((await status()).store, { state: 'ok', reason: null });

  const filled = data.fill();
  t.ok(filled > 0, `filled the data dir (${filled} bytes)`);
  const N = 12;
  for (let i = 0; i < N; i++) v.write(`Inbox/full-${i}.md`, note('full', i));

  const degraded = await until('the store to report disk_full', 60_000, async () => {
    const s = await status();
    return s.store.state === 'disk_full' ? s : undefined;
  });
  t.match(degraded.store.reason, /^disk_full: .*retries until space is freed/, 'status says why indexing waits');
  // outlast the stall watchdog: a store that is retrying reports progress and is not restarted
  await until(
    `work to wait longer than ${3 * STALL_MS} ms`,
    60_000,
    async () => ((await status()).oldest_pending_age_ms ?? 0) > 3 * STALL_MS || undefined,
  );
  const during = await d.search('lighthouse keeper baseword1', { mode: 'bm25', k: 1 });
  t.equal(during.results[0]?.path, 'Inbox/base-1.md', 'searches answer while the disk is full');
  t.ok(during.index.pending > 0, 'and show the pending work');

  data.free();
  await d.daemon.whenCaughtUp();
  const after = await status();
  t.same(after.store, { state: 'ok', reason: null }, 'the degraded state clears');
  t.equal(after.documents, 2 + N, 'every note queued while the disk was full is indexed', { exits, notIndexed: failed });
  t.equal(after.vectors, after.chunks, 'every chunk has its vector');
  const r = await d.search(`fullword${N - 1}`, { mode: 'bm25', k: 1 });
  t.equal(r.results[0]?.path, `Inbox/full-${N - 1}.md`, 'the last note is searchable');
  t.ok(allZero(await indexConsistency(d.cfg.data_dir)), 'index tables agree');
  t.same(storeExits, [], 'the store writer never crashed, stalled or dropped a message');
});
