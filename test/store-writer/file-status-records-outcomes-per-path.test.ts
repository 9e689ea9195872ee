// Per-file outcomes for `status --files`: the latest state, reason code and message of each path.
import t from 'tap';
import { statusLines } from '../helpers/file-statuses.js';
import { tempIndex } from '../helpers/index-fixture.js';

t.test('the latest outcome per path is kept and listed by path', async (t) => {
  const { writer, clock } = tempIndex(t, { dim: null });
  writer.setFileStatus('b.md', 'failed', 'unreadable', 'b.md: permission denied; fix its mode');
  writer.setFileStatus('a.png', 'skipped', 'binary');
  clock.advance(5);
  writer.setFileStatus('b.md', 'indexed', 'frontmatter_invalid', 'bad YAML at line 2: body indexed');
  t.same(writer.reader.fileStatuses(), [
    { path: 'a.png', state: 'skipped', reason: 'binary', message: null, updatedAt: clock.now() - 5 },
    { path: 'b.md', state: 'indexed', reason: 'frontmatter_invalid', message: 'bad YAML at line 2: body indexed', updatedAt: clock.now() },
  ]);
  t.same(
    writer.reader.fileStatuses('skipped').map((s) => s.path),
    ['a.png'],
  );
  t.throws(() => writer.setFileStatus('c.md', 'weird' as never), /CHECK constraint/, 'an unknown state is a bug');
});

t.test('a status moves with its renamed note, replacing one at the new path', async (t) => {
  const { writer } = tempIndex(t, { dim: null });
  writer.setFileStatus('Inbox/bad-fm.md', 'indexed', 'frontmatter_invalid', 'bad YAML at line 2: body indexed');
  writer.setFileStatus('Archive/bad-fm.md', 'failed', 'vanished', 'ENOENT');
  writer.moveFileStatus('Inbox/bad-fm.md', 'Archive/bad-fm.md');
  t.same(statusLines(writer.reader), ['Archive/bad-fm.md indexed frontmatter_invalid']);
  writer.moveFileStatus('Inbox/none.md', 'Archive/none.md');
  t.equal(writer.reader.fileStatuses().length, 1, 'moving a path with no status changes nothing');
});
