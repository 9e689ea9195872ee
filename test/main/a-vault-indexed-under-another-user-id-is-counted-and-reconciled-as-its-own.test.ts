// With `user_id` other than `default`, every reader of the index looks at that user's rows: status counts the notes,
// a restart over an unchanged vault re-reads nothing, and a deleted note leaves the index.
import t from 'tap';
import { allZero, indexConsistency, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

t.test('user_id alice: counted, reconciled by stat after a restart, deletes applied', async (t) => {
  const v = makeVault({
    'Projects/kiln.md': '# Kiln\n\nThe pottery kiln reaches cone six.\n',
    'Inbox/loom.md': '# Loom\n\nThe loom needs a heddle.\n',
  });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'user_id: alice\n');
  const first = await startDaemon(cfg);
  await first.daemon.whenCaughtUp();
  t.equal((await first.api('GET', '/v1/status')).body.index.documents, 2, 'status counts alice’s notes');
  await first.stop();

  const second = await startDaemon(cfg);
  t.teardown(() => second.stop());
  await second.daemon.whenCaughtUp();
  t.equal(second.daemon.board.get('filesDone'), 0, 'a restart over unchanged notes re-reads none of them');
  t.equal(second.daemon.board.get('embedCalls'), 0, 'and embeds nothing');

  const gone = second.daemon.nextDone('Inbox/loom.md', 'deleted');
  v.remove('Inbox/loom.md');
  await gone;
  const ix = (await second.api('GET', '/v1/status')).body.index;
  t.equal(ix.documents, 1, 'the deleted note left the index');
  t.same((await second.search('heddle', { mode: 'bm25' })).results, [], 'and search');
  t.ok(allZero(await indexConsistency(cfg.data_dir)));
});
