// A folder whose name ends in `.md`, made with a note already inside it, is scanned: its note gets indexed even
// when the OS reported only the folder (its name made the watcher treat it as a note and never look inside).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { within, daemonOn } from '../helpers/daemon.js';

t.test('a note inside a new folder named x.md is indexed', async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/a.md': '# A\n' }, 'writes:\n  enabled: false\n');
  const names = Array.from({ length: 10 }, (_, i) => `Inbox/folder ${i}.md/inner.md`);
  const done = names.map((n) => d.daemon.nextDone(n, 'indexed'));
  for (const n of names) {
    mkdirSync(path.join(v.dir, path.dirname(n)));
    writeFileSync(path.join(v.dir, n), `# Inner\n\nthe ocelot number ${n}\n`);
  }
  await within(Promise.all(done), 30_000, names.join(', '));
  const r = await d.search('ocelot', { mode: 'bm25', k: 20 });
  t.same(new Set(r.results.map((x: { path: string }) => x.path)), new Set(names), 'every inner note is searchable');
});
