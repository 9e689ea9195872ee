// The daemon's main thread runs the command line's bundle, and until the bundles were split it held every command's
// code (doctor, models, dream, facts, …) in one 2.2 MB source it never ran. After `make build`, what `memvault start`
// loads (bin/cli.js, the start command's chunk and what they import) holds no other command's chunk and is well under
// half of what the command line can reach.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { BUNDLE_DIR } from '../../supervisors/runtime/code-files.js';

const STATIC = /(?:^|[;}\s])(?:import|export)\s*(?:[\w${},*\s]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

const targets = (file: string, re: RegExp): string[] =>
  [...readFileSync(file, 'utf8').matchAll(re)].map((m) => path.resolve(path.dirname(file), m[1] ?? ''));

/** Every file `from` loads through static imports, itself included. */
function closure(from: string[], dynamic = false): Set<string> {
  const seen = new Set<string>();
  const todo = [...from];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...targets(f, STATIC), ...(dynamic ? targets(f, DYNAMIC) : []));
  }
  return seen;
}

const bytes = (files: Set<string>): number => [...files].reduce((n, f) => n + statSync(f).size, 0);

t.test('after make build, memvault start loads its own command and none of the others (run make build first)', async (t) => {
  const cli = path.join(BUNDLE_DIR, 'bin', 'cli.js');
  const commands = targets(cli, DYNAMIC);
  t.ok(commands.length >= 15, `the command line imports each command on demand (${commands.length} chunks)`);
  const start = commands.filter((c) => /[\\/]start-[\w-]+\.js$/.test(c));
  t.equal(start.length, 1, 'the start command is a chunk of its own');
  const loaded = closure([cli, ...start]);
  const others = commands.filter((c) => !start.includes(c));
  t.same(
    others.filter((c) => loaded.has(c)).map((c) => path.basename(c)),
    [],
    'no other command’s chunk is loaded by start',
  );
  const all = closure([cli], true);
  t.ok(
    bytes(loaded) < bytes(all) / 2,
    `start loads ${(bytes(loaded) / 1e6).toFixed(2)} MB of the ${(bytes(all) / 1e6).toFixed(2)} MB the command line can reach`,
  );
});
