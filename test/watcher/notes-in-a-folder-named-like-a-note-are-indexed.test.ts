// A folder whose name ends in `.md`, made with a note already inside it, is scanned: its note gets indexed even
// when the OS reported only the folder (its name made the watcher treat it as a note and never look inside).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, startDaemon, testConfig } from '../helpers/daemon.js';

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not indexed within ${ms} ms: ${what}`)), ms).unref())]);

t.test('a note inside a new folder named x.md is indexed', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n' });
  t.teardown(() => v.cleanup());
  const d = await startDaemon(testConfig(v.dir, 'writes:\n  enabled: false\n'));
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
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
