// The git writer's fact-log append (git.remember) checks that the line it would add reads back as a fact: a fact that
// is nothing but #tags used to trip an assertion and crash the actor. It is refused as data now, and nothing changes.
import t from 'tap';
import type { RememberResult } from '../../messages/vault-ops.js';
import { git, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

t.test('git.remember of a fact made only of #tags answers invalid_content; a real fact still lands', { timeout: 120_000 }, async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n\nsomething to index\n' });
  t.teardown(() => v.cleanup());
  const d = await startDaemon(testConfig(v.dir));
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const gitWriter = d.daemon.handles.git!;
  const commits = (): number => Number(git(v.dir, 'rev-list', '--count', 'HEAD').trim());
  const before = commits();
  const caller = { agent: 'sleep' };

  const bad = await gitWriter.request<RememberResult>(
    { type: 'git.remember', fact: { content: '#project #later', tags: [], who: 'sleep' }, caller },
    30_000,
  );
  t.match(bad, { ok: false, reason: 'invalid_content' }, JSON.stringify(bad));
  t.equal(commits(), before, 'no commit');
  t.equal(git(v.dir, 'status', '--porcelain').trim(), '', 'nothing changed on disk');

  const good = await gitWriter.request<RememberResult>(
    { type: 'git.remember', fact: { content: 'Alice prefers short summaries #style', tags: [], who: 'sleep' }, caller },
    30_000,
  );
  t.match(good, { ok: true }, 'the writer is still up and appends a real fact');
  t.equal(commits(), before + 1, 'one commit for it');
});
