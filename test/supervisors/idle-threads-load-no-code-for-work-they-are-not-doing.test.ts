// A thread holds the source of every module it loads in its V8 heap, and runs each one's top level (zod builds its
// schemas there). After `make build`, the code each thread loads at start (its bundle and the chunks it imports
// statically; its modules named by their source maps) leaves out what an idle daemon does not run: the gateway
// loads WebDAV (off by default) and the config loader (YAML and every zod schema of the config) on demand only, and the
// embedder, memory and chunker threads load no zod (the hub cache's manifest schema) until a hub model is fetched.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { BUNDLE_DIR } from '../../supervisors/runtime/code-files.js';
import { loadedFiles } from '../helpers/bundle-imports.js';

/** The modules (source map paths) the bundle at `entry` and its static imports were made of. */
function modulesLoadedBy(entry: string): string[] {
  return [...loadedFiles([path.join(BUNDLE_DIR, entry)])].flatMap(
    (f) => (JSON.parse(readFileSync(`${f}.map`, 'utf8')) as { sources: string[] }).sources,
  );
}

const has = (modules: string[], part: string): string[] => modules.filter((m) => m.includes(part));

t.test('the gateway loads no WebDAV and no config loader at start (run make build first)', async (t) => {
  const mods = modulesLoadedBy('actors/gateway/actor.js');
  t.ok(has(mods, 'actors/gateway/http-server.ts').length === 1, `the check reads the gateway's modules (${mods.length})`);
  t.same(has(mods, '/webdav/dav.ts'), [], 'no WebDAV handler');
  t.same(has(mods, '@xmldom'), [], 'no XML parser');
  t.same(has(mods, 'config/load.ts'), [], 'no config loader');
  t.same(has(mods, 'config/schema.ts'), [], 'no config schema');
});

t.test('the embedder, memory and chunker threads load no zod at start (run make build first)', async (t) => {
  for (const actor of ['embedder', 'memory', 'chunker']) {
    const mods = modulesLoadedBy(`actors/${actor}/actor.js`);
    t.ok(has(mods, 'actors/embedder/factory.ts').length === 1, `${actor}: the check reads its modules (${mods.length})`);
    t.same(has(mods, 'node_modules/zod/'), [], `${actor}: no zod`);
  }
});
