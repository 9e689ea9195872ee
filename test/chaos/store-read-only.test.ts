// A read-only data disk stalls indexing but loses nothing: a store writer restarted onto it keeps queued notes,
// says `read_only` in /v1/status while searches answer, and indexes them all once the disk is writable again.
import t from 'tap';
import { allZero, indexConsistency, nextRestart } from '../helpers/daemon.js';
import { until } from './lib/daemon-process.js';
import { tmpfsDaemon } from './lib/tmpfs-data-dir.js';

const STALL_MS = 1_000;
const note = (tag: string) => `# ${tag}\n\nThe ${tag} note mentions lighthouse keeper ${tag}word.\n`;

t.test('a read-only data disk holds indexing back without losing queued notes', { timeout: 90_000 }, async (t) => {
  const { v, data, d } = await tmpfsDaemon(t, { 'Inbox/base.md': note('base') }, `supervisor:\n  stall_ms: ${STALL_MS}\n`);
  await d.daemon.whenCaughtUp();
  const status = async () => (await d.api('GET', '/v1/status')).body.index;

  data.readOnly();
  // a process finds out about a read-only disk when it opens its files again: restart the store writer onto it
  const restarted = nextRestart(d.daemon, 'store');
  await d.daemon.handles.store!.crash('test: restart onto a read-only disk');
  await restarted;
  t.comment('store restarted onto the read-only disk');
  const storeExits: unknown[] = [];
  d.daemon.onSupervisor((e) => {
    if (e.type === 'supervisor.child_exited' && e.child === 'store') storeExits.push(e.exit);
  });
  const N = 6;
  for (let i = 0; i < N; i++) v.write(`Inbox/ro-${i}.md`, note(`ro${i}`));

  const degraded = await until('the store to report read_only', 60_000, async () => {
    const s = await status();
    return s.store.state === 'read_only' ? s : undefined;
  });
  t.comment('degraded');
  t.match(degraded.store.reason, /^read_only: /, 'status says why indexing waits');
  await until(
    `work to wait longer than ${3 * STALL_MS} ms`,
    60_000,
    async () => ((await status()).oldest_pending_age_ms ?? 0) > 3 * STALL_MS || undefined,
  );
  const during = await d.search('lighthouse keeper baseword', { mode: 'bm25', k: 1 });
  t.equal(during.results[0]?.path, 'Inbox/base.md', 'searches answer while the disk is read-only');

  data.writable();
  await d.daemon.whenCaughtUp();
  const after = await status();
  t.same(after.store, { state: 'ok', reason: null }, 'the degraded state clears');
  t.equal(after.documents, 1 + N, 'every note queued while the disk was read-only is indexed');
  t.equal((await d.search(`ro${N - 1}word`, { mode: 'bm25', k: 1 })).results[0]?.path, `Inbox/ro-${N - 1}.md`);
  t.ok(allZero(await indexConsistency(d.cfg.data_dir)), 'index tables agree');
  t.same(storeExits, [], 'the store writer never crashed, stalled or dropped a message while it waited');
});
