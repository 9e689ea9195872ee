// Privacy flag: `sensitive: true` or `memvault: local-only`; malformed frontmatter that names either fails closed.
import t from 'tap';
import { parse } from './helpers.js';

t.test('sensitive: true and memvault: local-only mark a note sensitive', async (t) => {
  t.equal(parse('---\nsensitive: true\n---\nx\n').sensitive, true);
  t.equal(parse('---\nsensitive: "yes"\n---\nx\n').sensitive, true);
  t.equal(parse('---\nmemvault: local-only\n---\nx\n').sensitive, true);
  t.equal(parse('---\nmemvault: Local-Only\n---\nx\n').sensitive, true);
});

t.test('other values and other notes are not sensitive', async (t) => {
  t.equal(parse('---\nsensitive: false\n---\nx\n').sensitive, false);
  t.equal(parse('---\nmemvault: sync\n---\nx\n').sensitive, false);
  t.equal(parse('x\n').sensitive, false);
  t.equal(parse('sensitive: true\n').sensitive, false, 'a body line is not frontmatter');
});

t.test('malformed frontmatter that mentions the flag is treated as sensitive', async (t) => {
  const note = parse('---\nsensitive: true\ntags: [oops\n---\nbank PIN 0000\n');
  t.ok(note.frontmatterError);
  t.equal(note.sensitive, true);
  t.equal(parse('---\ntags: [oops\n---\nx\n').sensitive, false);
});
