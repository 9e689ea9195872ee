// `memvault undo --run RUN_ID`: every commit of one dream run — its pages and its watermark line — is reverted,
// newest first, each as an undo commit; the batch is pending again. Only the newest run can be undone this way.
import t from 'tap';
import { readWatermark } from '../../actors/dream/journal.js';
import { undoRun } from '../../actors/git-writer/dream-writes.js';
import { git } from '../helpers/daemon.js';
import { dreamRig, page } from './helpers/rig.js';

t.test('undoing a run takes back its pages and its watermark, and only the newest run', async (t) => {
  const r = await dreamRig(t, {
    start: '2026-11-25T10:00:00Z',
    days: { '2026-11-01': ['Atlas cutover is in December'] },
    files: { 'Memory/Wiki/Atlas.md': page([], '# Atlas\n\nA migration.') },
    dream: { max_days: 1 },
  });
  const logs = r.logHashes();
  const id1 = r.id('2026-11-01', 'Atlas cutover is in December');
  r.llm.script(
    {
      toolCalls: [
        {
          name: 'vault_write',
          arguments: { path: 'Memory/Wiki/Atlas.md', content: page([id1], '# Atlas\n\nA migration. The cutover is in December.') },
        },
        {
          name: 'vault_write',
          arguments: { path: 'Memory/Wiki/Cutover.md', content: page([id1], '# Cutover\n\nAtlas cutover is in December.') },
        },
      ],
    },
    { content: 'ok' },
  );
  const run1 = await r.cycle.tick({ requested: true });
  t.match(run1, { outcome: 'consolidated', watermark: '2026-11-01' });
  if (run1.outcome !== 'consolidated') return;

  r.v.write('Memory/Log/2026-11-02.md', '# 2026-11-02\n\n## 10:00 — claude\n- Tom owns the cutover\n');
  await r.repo.commitHumanChanges();
  const id2 = r.id('2026-11-02', 'Tom owns the cutover');
  r.llm.script(
    {
      toolCalls: [
        { name: 'vault_write', arguments: { path: 'Memory/Wiki/Tom.md', content: page([id2], '# Tom\n\nTom owns the cutover.') } },
      ],
    },
    { content: 'ok' },
  );
  const run2 = await r.cycle.tick({ requested: true });
  t.match(run2, { outcome: 'consolidated', watermark: '2026-11-02' });
  if (run2.outcome !== 'consolidated') return;

  t.match(await undoRun(r.repo, run1.id, 'cli'), { ok: false, reason: 'not_last_run', message: new RegExp(run2.id) });
  const u2 = await undoRun(r.repo, run2.id, 'cli');
  t.match(u2, { ok: true, run: run2.id });
  if (u2.ok) t.equal(u2.commits.length, 2, 'the page and the watermark line');
  t.equal(r.read('Memory/Wiki/Tom.md'), null);
  t.equal(readWatermark(r.read('Memory/log.md')), '2026-11-01', 'the watermark is back where run 1 left it');

  const u1 = await undoRun(r.repo, run1.id, 'cli');
  t.match(u1, { ok: true });
  if (u1.ok) t.equal(u1.commits.length, 3);
  t.equal(r.read('Memory/Wiki/Atlas.md'), page([], '# Atlas\n\nA migration.'), 'the page as it was before the run');
  t.equal(r.read('Memory/Wiki/Cutover.md'), null);
  t.equal(readWatermark(r.read('Memory/log.md')), null);
  t.match(await r.cycle.status(), { pending_days: ['2026-11-01', '2026-11-02'] }, 'the batches are pending again');
  t.match(await undoRun(r.repo, run1.id, 'cli'), { ok: false, reason: 'nothing_to_undo' });
  t.match(git(r.v.dir, 'log', '-1', '--format=%(trailers:only,unfold)'), `Memvault-Reason: undo dream run ${run1.id}`);
  t.equal(r.logHashes()['2026-11-01.md'], logs['2026-11-01.md'], 'the log is untouched by the undo');
});
