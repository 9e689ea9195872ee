// kill -9 between an agent's file write and its commit used to leave the note to the start-up sweep, committed as
// the PERSON, so the agent could not undo it. The intent journal records the op first; the next start commits a
// change that matches it as the agent (and anything else as the person).
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { IntentJournal, intentFor } from '../../actors/git-writer/intent-journal.js';
import { git, makeVault, startDaemon, testConfig, type Running } from '../helpers/daemon.js';

const lastCommitOf = (dir: string, rel: string) =>
  git(
    dir,
    'log',
    '-1',
    '--format=%an|%(trailers:key=Memvault-Agent,valueonly,separator=%x2C)|%(trailers:key=Memvault-Op,valueonly,separator=%x2C)',
    'HEAD',
    '--',
    rel,
  ).trim();

const undo = (d: Running, agent: string) => d.tool('vault_undo_last', { only_mine: true }, agent);

t.test('a write on disk but not committed at the crash is committed as its agent, who can undo it', { timeout: 120_000 }, async (t) => {
  const v = makeVault({ 'Inbox/old.md': '# Old\n\nbefore the crash\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'writes:\n  human_quiet_ms: 50\n');
  let d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  await d.stop();

  // what the git writer leaves when killed after the rename and before `git commit`: the intent, and the new note
  const content = '# Cut off\n\nwritten by agent-7 just before the kill\n';
  const journal = new IntentJournal(path.join(cfg.data_dir, 'git-intent.json'));
  await journal.record(await intentFor(v.dir, { op: 'write', path: 'Inbox/cut off.md', content }, { agent: 'agent-7', reason: 'notes' }));
  v.write('Inbox/cut off.md', content);
  v.write('Daily/mine.md', '# Mine\n\nthe person wrote this while memvault was down\n');

  d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const r = await undo(d, 'agent-7'); // runs after the git writer's start, so after the recovery
  t.equal(lastCommitOf(v.dir, 'Daily/mine.md'), 'vault owner||human', 'the person’s own edit is still theirs');
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.same(r.body.paths, ['Inbox/cut off.md'], 'the agent’s undo finds its cut-off write');
  t.notOk(existsSync(path.join(v.dir, 'Inbox/cut off.md')), 'and reverts it');
  const recovered = git(v.dir, 'log', '-1', '--skip=1', '--format=%B', 'HEAD', '--', 'Inbox/cut off.md'); // the one before the undo
  t.match(recovered, /Memvault-Agent: agent-7/, 'the recovered commit carries the agent trailer');
  t.match(recovered, /Recorded at start/, 'and says how it was recorded');
  t.equal(git(v.dir, 'status', '--porcelain').trim(), '', 'nothing left uncommitted');
  t.notOk(await journal.read(), 'the journal is cleared');
});

t.test('a note a person changed after the cut-off write is the person’s, not the agent’s', { timeout: 120_000 }, async (t) => {
  const v = makeVault({ 'Inbox/old.md': '# Old\n\nbefore the crash\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'writes:\n  human_quiet_ms: 50\n');
  let d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();
  await d.stop();

  const journal = new IntentJournal(path.join(cfg.data_dir, 'git-intent.json'));
  await journal.record(
    await intentFor(v.dir, { op: 'write', path: 'Inbox/old.md', content: '# Old\n\nthe agent’s text\n' }, { agent: 'agent-7' }),
  );
  v.write('Inbox/old.md', '# Old\n\nthe person’s text, saved over the agent’s\n');

  d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const r = await undo(d, 'agent-7');
  t.equal(r.body.error?.reason, 'nothing_to_undo', 'agent-7 has no change to undo');
  t.equal(lastCommitOf(v.dir, 'Inbox/old.md'), 'vault owner||human', 'the edit is committed as the person’s');
  t.notOk(await journal.read(), 'the journal is cleared');
});
