// The daemon's main thread runs the command line's bundle, and until the bundles were split it held every command's
// code (doctor, models, dream, facts, …) in one 2.2 MB source it never ran. After `make build`, what `memvault start`
// loads (bin/cli.js, the start command's chunk and what they import) holds no other command's chunk and is well under
// half of what the command line can reach.
import { statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { BUNDLE_DIR } from '../../supervisors/runtime/code-files.js';
import { importsOf, loadedFiles } from '../helpers/bundle-imports.js';

const bytes = (files: Set<string>): number => [...files].reduce((n, f) => n + statSync(f).size, 0);

t.test('after make build, memvault start loads its own command and none of the others (run make build first)', async (t) => {
  const cli = path.join(BUNDLE_DIR, 'bin', 'cli.js');
  const commands = importsOf(cli, true);
  t.ok(commands.length >= 15, `the command line imports each command on demand (${commands.length} chunks)`);
  const start = commands.filter((c) => /[\\/]start-[\w-]+\.js$/.test(c));
  t.equal(start.length, 1, 'the start command is a chunk of its own');
  const loaded = loadedFiles([cli, ...start]);
  const others = commands.filter((c) => !start.includes(c));
  t.same(
    others.filter((c) => loaded.has(c)).map((c) => path.basename(c)),
    [],
    'no other command’s chunk is loaded by start',
  );
  const all = loadedFiles([cli], true);
  t.ok(
    bytes(loaded) < bytes(all) / 2,
    `start loads ${(bytes(loaded) / 1e6).toFixed(2)} MB of the ${(bytes(all) / 1e6).toFixed(2)} MB the command line can reach`,
  );
});
