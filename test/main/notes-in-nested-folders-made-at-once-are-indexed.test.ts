// `mkdir -p a/b/c` makes folders faster than the OS watcher adds its watches (inotify: b and c were never watched),
// so notes saved there were never indexed — the overload run lost whole dropped folders. Each must reach the index.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { within, daemonOn } from '../helpers/daemon.js';

t.test('notes saved into freshly made nested folders, at once and later, are all indexed', async (t) => {
  const { v, d } = await daemonOn(t, { 'Projects/Atlas.md': '# Atlas\n\nthe first note\n' });

  const chains = 12;
  const deep = (i: number) => `Drop/chain-${i}/a/b`;
  const note = (i: number, n: string) => `${deep(i)}/${n}.md`;
  const save = (rel: string) => writeFileSync(path.join(v.dir, rel), `# ${rel}\n\nsaved into a folder made a moment ago\n`);

  // the folders and the first notes at once, as an unzip or a copied tree makes them
  const first = Array.from({ length: chains }, (_, i) => note(i, 'first'));
  const firstDone = first.map((p) => d.daemon.nextDone(p));
  for (let i = 0; i < chains; i++) mkdirSync(path.join(v.dir, deep(i)), { recursive: true });
  first.forEach(save);
  await within(Promise.all(firstDone), 30_000, 'notes written with their folders');
  t.pass('notes written together with their folders are indexed');

  // and notes saved there afterwards: only an OS watch on the deepest folder reports these
  const later = Array.from({ length: chains }, (_, i) => note(i, 'later'));
  const laterDone = later.map((p) => d.daemon.nextDone(p));
  later.forEach(save);
  await within(Promise.all(laterDone), 30_000, 'notes saved later into the nested folders');
  t.pass('notes saved later into those folders are indexed');

  await d.daemon.whenCaughtUp();
  const status = (await d.api('GET', '/v1/status')).body.index;
  t.equal(status.documents, 1 + 2 * chains, 'the index holds every note');
});
