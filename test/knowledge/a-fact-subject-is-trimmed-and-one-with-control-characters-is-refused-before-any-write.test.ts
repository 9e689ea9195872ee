// memory_add_fact's subject names a note: "Bob " is Bob (its facts go into the same entity note, not a second one
// named `Bob .md`), a subject of spaces alone is refused, and one holding a NUL or another control character is a
// bad_request naming the argument — never an internal error carrying the vault's path — with nothing written; so is a
// file name ("Bob.md"), which made a second entity note, `Bob.md.md`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git } from '../helpers/daemon.js';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

t.test('a fact subject is trimmed, and one with control characters is refused before any write', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  const d = s.d;
  const commits = () => Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim());
  const entities = () =>
    existsSync(path.join(s.v.dir, 'Memory/Entities')) ? readdirSync(path.join(s.v.dir, 'Memory/Entities')).sort() : [];

  const first = await d.tool('memory_add_fact', { subject: 'Bob', predicate: 'likes', object: 'tea' });
  t.equal(first.status, 200, JSON.stringify(first.body));
  t.equal(first.body.path, 'Memory/Entities/Bob.md');
  const spaced = await d.tool('memory_add_fact', { subject: '  Bob ', predicate: 'drinks', object: 'coffee' });
  t.equal(spaced.status, 200, JSON.stringify(spaced.body));
  t.equal(spaced.body.path, 'Memory/Entities/Bob.md', 'the same note as "Bob"');
  t.same(entities(), ['Bob.md'], 'no second entity note');
  t.match(readFileSync(path.join(s.v.dir, 'Memory/Entities/Bob.md'), 'utf8'), /^# Bob\n[\s\S]*- likes:: tea\n- drinks:: coffee\n$/);
  const facts = await d.tool('memory_facts', { entity: 'Bob' });
  t.same(facts.body.facts.map((f: { predicate: string }) => f.predicate).sort(), ['drinks', 'likes']);

  const before = commits();
  for (const bad of ['   ', 'Bo\u0000b', 'Bo\u0007b', 'Bo\tb', 'Bob.md', 'Bob.MD ']) {
    const r = await d.tool('memory_add_fact', { subject: bad, predicate: 'likes', object: 'tea' });
    t.equal(r.status, 400, `${JSON.stringify(bad)}: ${JSON.stringify(r.body)}`);
    t.equal(r.body.error.reason, 'bad_request');
    t.match(r.body.error.message, /subject/, 'the message names the argument');
    t.notMatch(r.body.error.message, s.v.dir, 'and not the vault path');
  }
  t.equal(commits(), before, 'nothing was committed');
  t.same(entities(), ['Bob.md'], 'no file was made');
});
