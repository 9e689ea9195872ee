// The episode journal is the record (the index is rebuilt from it). Deleted while the daemon runs (the data dir or
// its episodes/ folder removed), the journal's open file kept taking appends and answering them as durable: linked
// nowhere, they were gone at the next reindex or a lost index. An append now finds its file unlinked and writes a new one.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

const task = (id: string, title: string) => ({ episodes: [{ type: 'task', task_id: id, title, status: 'open' }] });

t.test('an episode accepted after episodes/ was deleted is journaled and found after a restart', { timeout: 120_000 }, async (t) => {
  const v = makeVault({ 'Projects/a.md': '# A\n\nsome text\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  let d = await startDaemon(cfg);
  t.equal((await d.api('POST', '/v1/episodes', task('T-1', 'Glaze the first batch of mugs'))).status, 200);
  await d.daemon.whenCaughtUp();

  const dir = path.join(cfg.data_dir, 'episodes');
  rmSync(dir, { recursive: true, force: true });
  const r = await d.api('POST', '/v1/episodes', task('T-2', 'Order the kiln shelf zq7zq'));
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.ok(existsSync(dir), 'the journal folder is made again');
  const text = existsSync(dir)
    ? readdirSync(dir)
        .map((f) => readFileSync(path.join(dir, f), 'utf8'))
        .join('')
    : '';
  t.match(text, /zq7zq/, 'the acknowledged episode is in a journal file on disk');
  await d.daemon.whenCaughtUp();
  await d.stop();

  d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  // a reindex rebuilds episodes from the journal alone: what it holds is what survives
  const ri = await d.api('POST', '/v1/reindex', {});
  t.equal(ri.status, 200, JSON.stringify(ri.body));
  const found = await d.search('zq7zq', { mode: 'bm25', filters: { source_type: 'task' } });
  t.equal(found.results[0]?.task_id, 'T-2', 'and found after a restart and a reindex');
});
