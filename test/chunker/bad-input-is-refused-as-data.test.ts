// Bad bytes come back as failures with stable reasons; a BOM and CRLF line endings are ordinary input.
import t from 'tap';
import { parseNote } from '../../actors/chunker/parse-note.js';
import { vaultPath } from '../../messages/common.js';
import { defaults, wordTokens } from './helpers.js';

const run = (bytes: Buffer, maxBytes = defaults.maxBytes) =>
  parseNote(vaultPath('Inbox/x.md'), bytes, wordTokens(), { ...defaults, maxBytes });

t.test('a file over maxBytes is too_large', async (t) => {
  const r = run(Buffer.from('a'.repeat(2000)), 1024);
  t.match(r, { ok: false, reason: 'too_large' });
  t.ok(run(Buffer.from('a'.repeat(1024)), 1024).ok, 'exactly the limit is fine');
});

t.test('NUL bytes or mostly control characters are binary', async (t) => {
  t.match(run(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00])), { ok: false, reason: 'binary' });
  t.match(run(Buffer.from('text\u0000more')), { ok: false, reason: 'binary', message: /NUL byte at offset 4/ });
  t.match(run(Buffer.from(Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 0x01 : 0x41)))), { ok: false, reason: 'binary' });
});

t.test('invalid UTF-8 and UTF-16 are not_utf8', async (t) => {
  t.match(run(Buffer.from('caf\xe9 au lait', 'latin1')), { ok: false, reason: 'not_utf8', message: /bad byte 0xe9 at offset 3/ });
  t.match(run(Buffer.from([0xe2, 0x82])), { ok: false, reason: 'not_utf8' });
  t.match(run(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# hi', 'utf16le')])), {
    ok: false,
    reason: 'not_utf8',
    message: /UTF-16/,
  });
});

t.test('a UTF-8 BOM and CRLF endings parse like plain LF text, except for the content hash', async (t) => {
  const lf = '---\ntitle: Crlf\ntags: [a]\n---\n# H\nText with [[Link]] #tag\n\nMore.\n';
  const plain = run(Buffer.from(lf));
  const bomCrlf = run(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lf.replaceAll('\n', '\r\n'))]));
  if (!plain.ok || !bomCrlf.ok) throw new Error('both should parse');
  t.equal(bomCrlf.note.title, 'Crlf');
  t.same(bomCrlf.note.frontmatter, { title: 'Crlf', tags: ['a'] });
  t.same(bomCrlf.note.tags, ['a', 'tag']);
  t.same(bomCrlf.note.links, [{ target: 'Link', embed: false, line: 6 }]);
  t.same(bomCrlf.note.chunks, plain.note.chunks);
  t.notMatch(bomCrlf.note.chunks[0]!.content, /\r|\ufeff/);
  t.not(bomCrlf.note.contentHash, plain.note.contentHash);
});

t.test('bad options are bugs and throw with the field named', async (t) => {
  t.throws(() => parseNote(vaultPath('x.md'), Buffer.from('x'), wordTokens(), { ...defaults, maxTokens: 0 }), /maxTokens must be/);
  t.throws(() => parseNote(vaultPath('x.md'), Buffer.from('x'), wordTokens(), { ...defaults, overlapTokens: -1 }), /overlapTokens must be/);
});
