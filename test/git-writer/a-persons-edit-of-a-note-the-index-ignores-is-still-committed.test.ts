// `watcher.ignore` (Templates/** by default) keeps notes out of the index, not out of history: the first import
// commits Templates/Daily.md, so a person's later edit of it is committed too, or git status is never clean again.
// Hidden notes (.trash/) and the data dir stay the person's to decide, as before.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { notPersonsNote, subscriptionIgnore } from '../../actors/git-writer/persons-notes.js';
import { daemonOn, git, within } from '../helpers/daemon.js';

t.test('a person’s edit of an imported template is committed as theirs; a hidden note is left alone', async (t) => {
  const { v, d } = await daemonOn(t, { 'Templates/Daily.md': '# {{date}}\n', 'Inbox/a.md': '# A\n' }, 'writes:\n  human_quiet_ms: 100\n');
  t.match(git(v.dir, 'ls-files').trim().split('\n').sort(), ['Inbox/a.md', 'Templates/Daily.md'], 'imported');
  const committed = new Promise<{ sha: string; paths: string[] }>((resolve) => {
    const off = d.daemon.onRouted((m) => {
      if (m.type === 'main.committed' && m.kind === 'human') {
        off();
        resolve(m);
      }
    });
  });
  mkdirSync(path.join(v.dir, '.trash'));
  writeFileSync(path.join(v.dir, '.trash/old.md'), '# Old\n');
  appendFileSync(path.join(v.dir, 'Templates/Daily.md'), '\n## Notes\n');
  const c = await within(committed, 20_000, 'the person-commit of the template');
  t.same(c.paths, ['Templates/Daily.md'], 'the template, not the hidden note');
  t.equal(git(v.dir, 'log', '-1', '--format=%an', c.sha).trim(), 'vault owner', 'as the person');
  t.equal(git(v.dir, 'status', '--porcelain').trim(), '?? .trash/', 'only the hidden note is left, untracked');
  const found = await d.search('Notes', { mode: 'bm25' });
  t.notOk(
    found.results.some((r: { path: string }) => r.path.startsWith('Templates/')),
    'and the template is still not indexed',
  );
});

t.test('the data dir inside the vault is never the person’s to commit; outside it changes nothing', async (t) => {
  const inside = notPersonsNote('/v', '/v/state');
  t.equal(inside('state/models/README.md', false), true);
  t.equal(inside('state', true), true);
  t.equal(inside('stateful.md', false), false, 'a name that only starts like it');
  t.equal(inside('Templates/Daily.md', false), false);
  t.equal(inside('.trash/old.md', false), true, 'hidden');
  t.equal(inside('Projects/diagram.png', false), true, 'not a note');
  const outside = notPersonsNote('/v', '/data');
  t.equal(outside('data/x.md', false), false);
  t.equal(notPersonsNote('/v', '/v/.memvault')('.memvault/x.md', false), true);
});

t.test('the OS subscription skips hidden folders and the data dir, and watches the other ignored folders', async (t) => {
  const globs = ['.obsidian/**', '.git/**', '.memvault/**', '.trash/**', 'Templates/**'];
  t.same(subscriptionIgnore(globs, '/v', '/v/.memvault'), ['.obsidian/**', '.git/**', '.memvault/**', '.trash/**']);
  t.same(subscriptionIgnore(globs, '/v', '/v/state'), ['.obsidian/**', '.git/**', '.memvault/**', '.trash/**', 'state/**']);
  t.same(subscriptionIgnore(['.git/**'], '/v', '/data'), ['.git/**']);
});
