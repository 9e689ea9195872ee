// A restart over an unchanged vault embeds nothing; changes made while stopped are reconciled; an edit re-embeds
// only the chunks whose text changed.
import { rmSync, renameSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { allZero, indexConsistency, makeVault, startDaemon, testConfig, daemonOn } from '../helpers/daemon.js';

const long = (topic: string) =>
  `# ${topic}\n\n` +
  Array.from(
    { length: 4 },
    (_, s) => `## Part ${s}\n\n` + `The ${topic} part ${s} explains detail ${s} in plain words. `.repeat(6) + '\n',
  ).join('\n');

t.test('restart over an unchanged vault makes no embedding calls', async (t) => {
  const v = makeVault({ 'Projects/alpha.md': long('alpha'), 'Projects/beta.md': long('beta'), 'Inbox/gamma.md': long('gamma') });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const first = await startDaemon(cfg);
  await first.daemon.whenCaughtUp();
  t.ok(first.daemon.board.get('embedCalls') > 0, 'the first start embeds');
  const chunks = (await first.api('GET', '/v1/status')).body.index.chunks;
  await first.stop();

  const second = await startDaemon(cfg);
  t.teardown(() => second.stop());
  await second.daemon.whenCaughtUp();
  t.equal(second.daemon.board.get('embedCalls'), 0, 'no model call after a restart over unchanged notes');
  t.equal(second.daemon.board.get('filesDone'), 0, 'no file even re-read');
  t.equal((await second.api('GET', '/v1/status')).body.index.chunks, chunks);
});

t.test('changes made while the daemon was down are reconciled at boot, renames without re-embedding', async (t) => {
  const v = makeVault({ 'Projects/alpha.md': long('alpha'), 'Projects/beta.md': long('beta'), 'Inbox/gamma.md': long('gamma') });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  const first = await startDaemon(cfg);
  await first.daemon.whenCaughtUp();
  await first.stop();

  rmSync(path.join(v.dir, 'Inbox/gamma.md'));
  renameSync(path.join(v.dir, 'Projects/beta.md'), path.join(v.dir, 'Projects/beta-renamed.md'));
  v.write('Inbox/delta.md', '# Delta\n\nA brand new note about kayaks.\n');
  const second = await startDaemon(cfg);
  t.teardown(() => second.stop());
  await second.daemon.whenCaughtUp();
  const paths = (await second.search('part explains detail', { mode: 'bm25', k: 50 })).results.map((h: { path: string }) => h.path);
  t.ok(paths.includes('Projects/beta-renamed.md'), 'the renamed note is under its new path');
  t.notOk(paths.includes('Projects/beta.md'), 'and not the old');
  t.notOk(paths.includes('Inbox/gamma.md'), 'the deleted note is gone');
  t.equal((await second.search('kayaks', { mode: 'bm25' })).results[0]?.path, 'Inbox/delta.md', 'the new note is in');
  t.equal(second.daemon.board.get('embedCalls'), 1, 'one model call: the new note only (the rename reused its vectors)');
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
});

t.test('an edit re-embeds only the chunks whose text changed', async (t) => {
  const { v, d } = await daemonOn(t, { 'Projects/alpha.md': long('alpha') });
  const metric = async (name: string) => {
    const text = String((await d.api('GET', '/metrics')).body);
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  };
  const computed0 = await metric('memvault_embeddings_computed_total');
  const reused0 = await metric('memvault_embeddings_reused_total');
  const done = d.daemon.nextDone('Projects/alpha.md', 'indexed');
  v.write('Projects/alpha.md', long('alpha').replace('part 3 explains detail 3', 'part 3 explains a corrected detail'));
  await done;
  const computed = (await metric('memvault_embeddings_computed_total')) - computed0;
  const reused = (await metric('memvault_embeddings_reused_total')) - reused0;
  t.ok(computed >= 1 && computed <= 2, `only the changed chunk(s) were embedded (${computed})`);
  t.ok(reused >= 3, `the unchanged chunks reused their vectors (${reused})`);
});
