// Proof of work: a run that changes no page in the zones leaves the watermark where it was and counts a failure for
// its batch, even across a restart; the third failure skips the batch with a `skipped` journal line, its facts still
// in the log; an LLM endpoint that is down is not the batch's fault and counts nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { readWatermark } from '../../actors/dream/journal.js';
import { dreamRig, page } from './helpers/rig.js';

t.test('no change: no watermark, a failure counted; three failures: the batch is skipped', async (t) => {
  const r = await dreamRig(t, {
    start: '2026-11-25T10:00:00Z',
    days: { '2026-11-20': ['Tom drives the rollback rehearsal'], '2026-11-21': ['The rehearsal is on Friday'] },
    files: { 'Memory/Wiki/Rehearsal.md': page([], '# Rehearsal\n') },
  });
  const logs = r.logHashes();
  const key = '2026-11-20..2026-11-21';
  // 1: the model only reads; 2: it rewrites a page with the same bytes; 3: it is refused
  r.llm.script({ toolCalls: [{ name: 'vault_read', arguments: { path: 'Memory/Wiki/Rehearsal.md' } }] }, { content: 'Nothing to do.' });
  t.match(await r.cycle.tick({ requested: true }), { outcome: 'no_progress', counts_as_failure: true, watermark: null });
  t.equal(r.read('Memory/log.md'), null, 'no watermark line');
  t.match(await r.cycle.status(), { failures: { [key]: 1 }, watermark: null, last_run: { outcome: 'no_progress' } });
  t.match(await r.cycle.tick(), { outcome: 'idle', reason: 'backing_off' }, 'the next tick backs off');

  r.restart(); // a restart does not forget the failure
  r.llm.script(
    { toolCalls: [{ name: 'vault_write', arguments: { path: 'Memory/Wiki/Rehearsal.md', content: page([], '# Rehearsal\n') } }] },
    { content: 'Same page.' },
  );
  t.match(await r.cycle.tick({ requested: true }), { outcome: 'no_progress' }, 'the same bytes are no change');
  r.llm.script({ toolCalls: [{ name: 'vault_write', arguments: { path: 'USER.md', content: 'x' } }] }, { content: 'Refused.' });
  t.match(await r.cycle.tick({ requested: true }), {
    outcome: 'no_progress',
    refused: [{ tool: 'vault_write', reason: 'protected_file' }],
  });
  t.match(await r.cycle.status(), { failures: { [key]: 3 } });
  t.equal(r.events.filter((e) => e.event === 'dream_no_progress').length, 3);

  const before = r.llm.chats().length;
  t.match(await r.cycle.tick(), { outcome: 'skipped', batch: key, failures: 3, watermark: '2026-11-21' });
  t.equal(r.llm.chats().length, before, 'a skip asks the model nothing');
  t.equal(readWatermark(r.read('Memory/log.md')), '2026-11-21', 'the watermark moves past the batch');
  t.match(r.read('Memory/log.md'), `watermark=2026-11-21 outcome=skipped batch=${key} failures=3`);
  t.match(await r.cycle.status(), { failures: {}, pending_days: [], last_run: { outcome: 'skipped' } });
  t.ok(r.events.some((e) => e.event === 'dream_batch_skipped'));
  t.same(r.logHashes(), logs, 'the facts stay in the log, byte for byte');
});

t.test('an unreachable LLM fails the run without counting against the batch', async (t) => {
  const r = await dreamRig(t, { start: '2026-11-25T10:00:00Z', days: { '2026-11-24': ['A fact'] } });
  r.llm.script({ status: 401, body: 'bad key' });
  t.match(await r.cycle.tick({ requested: true }), { outcome: 'failed', counts_as_failure: false, reason: /^llm_unauthorized/ });
  t.match(await r.cycle.status(), { failures: {}, pending_days: ['2026-11-24'], last_run: { outcome: 'failed' } });
});

t.test('max_steps ends the loop: the calls past it are refused and the run still proves its work', async (t) => {
  const r = await dreamRig(t, {
    start: '2026-11-25T10:00:00Z',
    days: { '2026-11-24': ['Sofia owns the fallback plan'] },
    dream: { max_steps: 2 },
  });
  const id = r.id('2026-11-24', 'Sofia owns the fallback plan');
  r.llm.script({
    toolCalls: [
      { name: 'vault_list', arguments: { folder: 'Memory/Wiki' } },
      { name: 'vault_write', arguments: { path: 'Memory/Wiki/Sofia.md', content: page([id], '# Sofia\n\nSofia owns the fallback plan.') } },
      { name: 'vault_write', arguments: { path: 'Memory/Wiki/Extra.md', content: '# Extra\n' } },
    ],
  });
  const res = await r.cycle.tick({ requested: true });
  t.match(res, { outcome: 'consolidated', tool_calls: 2, pages: ['Memory/Wiki/Sofia.md'], reason: /^max_steps/ });
  t.equal(r.read('Memory/Wiki/Extra.md'), null);
  t.equal(r.llm.chats().length, 1, 'no call to the model after the limit');
});

t.test('a broken prompt override fails the run with its reason, asks nothing and counts nothing', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-dream-tpl-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'dream.liquid');
  writeFileSync(file, 'Consolidate {{ batch }} in the mood {{ mood }}.\n');
  const r = await dreamRig(t, { start: '2026-11-25T10:00:00Z', days: { '2026-11-24': ['A fact'] }, promptFile: file });
  t.match(await r.cycle.tick({ requested: true }), {
    outcome: 'failed',
    counts_as_failure: false,
    reason: /^template_error: .*dream\.liquid: .*mood/,
  });
  t.equal(r.llm.chats().length, 0);
  t.match(await r.cycle.status(), { failures: {}, pending_days: ['2026-11-24'] });
});
