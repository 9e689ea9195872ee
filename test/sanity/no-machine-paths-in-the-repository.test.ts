// No file in the repository names a path that exists only on one machine's layout: data is found relative to the
// repository (../shared/corpora) or through an environment variable, so a clone anywhere runs the same.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { REPO } from '../helpers/daemon.js';

// Home and workspace roots of the machines this project has been built on (spelled in pieces so this file is no hit).
const MACHINE_ROOTS = ['work', 'home', 'root', 'Users'].map((d) => `/${d}/`);
const SELF = 'test/sanity/no-machine-paths-in-the-repository.test.ts';

t.test('no tracked file names an absolute path of one machine', async (t) => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean);
  t.ok(files.length > 100, `the whole repository is read (${files.length} files)`);
  const hits: string[] = [];
  for (const f of files) {
    if (f === SELF || f === 'package-lock.json' || !existsSync(path.join(REPO, f))) continue; // deleted, not yet committed
    const text = readFileSync(path.join(REPO, f), 'latin1');
    text.split('\n').forEach((line, i) => {
      const root = MACHINE_ROOTS.find((r) => new RegExp(`(^|[\\s'"\`(=:])${r.replace(/\//g, '\\/')}`).test(line));
      if (root) hits.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  t.same(hits, [], 'paths under /work/, /home/, /root/ or /Users/ belong in ../shared, $MEMVAULT_CORPORA or a temp dir');
});
