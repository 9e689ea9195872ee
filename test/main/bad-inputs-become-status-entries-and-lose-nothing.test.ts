// Bad notes (binary, not UTF-8, too large, malformed frontmatter, symlink loops, odd names) each get a status entry
// with a stable reason; the daemon keeps serving and the good notes stay indexed.
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { fileStates, openDirect } from '../../bin/direct.js';

t.test('each bad input is reported with its reason and nothing else is lost', async (t) => {
  const v = makeVault({
    'Inbox/good.md': '# Good\n\nThe walrus sings about chowder.\n',
    'Inbox/binary.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0x02, 0x00, 0xff, 0x10, 0x00]),
    'Inbox/latin1.md': Buffer.concat([Buffer.from('# Caf'), Buffer.from([0xe9]), Buffer.from(' au lait\n\nna\xefve text\n', 'latin1')]),
    'Inbox/huge.md': '# Huge\n\n' + 'word '.repeat(2000),
    'Inbox/bad-frontmatter.md': '---\ntitle: [unclosed\ntags: : :\n---\n# Body survives\n\nThe zebra crossing is findable.\n',
    'Inbox/weird #1 [x] ü — 日本.md': '# Odd name\n\nThe platypus note has an odd file name.\n',
  });
  symlinkSync('loop.md', path.join(v.dir, 'Inbox/loop.md')); // a symlink to itself
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'chunker:\n  max_file_bytes: 4096\n');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();

  const view = openDirect(cfg)!;
  t.teardown(() => view.close());
  const states = new Map((await fileStates(cfg, view)).map((f) => [f.path, f]));
  t.match(states.get('Inbox/binary.md'), { state: 'failed', reason: 'binary' });
  t.match(states.get('Inbox/latin1.md'), { state: 'failed', reason: 'not_utf8' });
  t.match(states.get('Inbox/huge.md'), { state: 'failed', reason: 'too_large' });
  t.match(states.get('Inbox/loop.md'), { state: 'failed', reason: 'symlink_loop' });
  t.match(states.get('Inbox/bad-frontmatter.md'), { state: 'indexed', reason: 'frontmatter_invalid' });
  t.match(states.get('Inbox/good.md'), { state: 'indexed' });
  t.match(states.get('Inbox/weird #1 [x] ü — 日本.md'), { state: 'indexed' });
  for (const s of states.values()) t.ok(s.state !== 'failed' || (s.message ?? '').length > 0, `${s.path} has a message`);

  t.equal(
    (await d.search('zebra crossing', { mode: 'bm25' })).results[0]?.path,
    'Inbox/bad-frontmatter.md',
    'malformed frontmatter: the body is indexed',
  );
  t.equal((await d.search('platypus', { mode: 'bm25' })).results[0]?.path, 'Inbox/weird #1 [x] ü — 日本.md');
  t.equal((await d.search('walrus chowder', { mode: 'bm25' })).results[0]?.path, 'Inbox/good.md');

  // a good note turned bad keeps what was indexed for every other note, and says why it was not re-read
  const done = d.daemon.nextDone('Inbox/good.md', 'failed');
  v.write('Inbox/good.md', Buffer.from([0x00, 0x01, 0x02, 0x03, 0x00]));
  await done;
  t.equal((await d.search('platypus', { mode: 'bm25' })).results[0]?.path, 'Inbox/weird #1 [x] ü — 日本.md', 'other notes untouched');
  t.equal((await d.api('GET', '/healthz')).status, 200, 'still serving');
});
