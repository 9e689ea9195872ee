// bin/bundle.ts minifies whitespace and syntax (a thread holds its source in its heap) but keeps names: a stack trace
// from bundled code still names the function that threw as written (even where two modules' names clash and esbuild
// renames one) and its class, and the source map beside the bundle maps the throwing line and column back to the module.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import t from 'tap';
import { BUNDLE_OPTIONS } from '../../bin/bundle.js';

const SHELF = `// a comment the bundle drops
export class Shelf {
  constructor(name) {
    this.name = name;
  }

  /** throws on purpose, from a named method */
  stack(book) {
    if (book === 'otters') throw new Error('no room for ' + book);
    return this.name + ': ' + book;
  }
}

export function shelve(book) {
  return new Shelf('left').stack(book);
}
`;

// same names as shelf.js, so esbuild must rename one module's copies inside the bundle
const OTHER = `export class Shelf {
  stack() {
    return 'other';
  }
}
export function shelve() {
  return new Shelf().stack();
}
`;

// other.js first: its names stay, and shelf.js's (the ones that throw) are the renamed ones
const ENTRY = `import { shelve as otherShelve } from './other.js';
import { shelve } from './shelf.js';
export function run(book) {
  return [otherShelve(), shelve(book)];
}
`;

t.test('a bundled throw names its function and class, and its source map points at the throwing line', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-bundle-names-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'shelf.js'), SHELF);
  writeFileSync(path.join(dir, 'other.js'), OTHER);
  writeFileSync(path.join(dir, 'entry.js'), ENTRY);
  const out = path.join(dir, 'out');
  await build({ ...BUNDLE_OPTIONS, entryPoints: [path.join(dir, 'entry.js')], outdir: out, logLevel: 'silent' });
  const file = path.join(out, 'entry.js');
  const code = readFileSync(file, 'utf8');
  t.notMatch(code, /a comment the bundle drops/, 'comments are gone');
  t.notMatch(code, /\n {2,}/, 'indentation is gone');
  t.ok(code.length < (SHELF.length + OTHER.length + ENTRY.length) * 1.5, `minified: ${code.length} characters`);

  // run as the daemon runs it: a node process without source maps (the test runner turns them on in its children)
  const script = `process.setSourceMapsEnabled(false);
const { run } = await import(${JSON.stringify(pathToFileURL(file).href)});
console.log(JSON.stringify(run('kelp')));
try { run('otters'); } catch (e) { console.log(e.stack); }`;
  const [first = '', ...stack] = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).split('\n');
  t.same(JSON.parse(first), ['other', 'left: kelp'], 'the bundle still does what its modules did');
  t.equal(stack[0], 'Error: no room for otters');
  const frames = stack.filter((l) => l.includes(file));
  t.match(code, /\bShelf2\b/, 'esbuild renamed one of the clashing classes');
  // V8 names a method's class by the binding esbuild gave it (Shelf2 where two modules' names clash, as before the
  // bundles were minified); a function by its name property, which keepNames sets back to the written name
  t.match(frames[0], /at Shelf2?\.stack \(/, 'the method and its class');
  t.match(frames[1], /at shelve \(/, 'the function, as written (not shelve2)');
  t.match(frames[2], /at (Module\.)?run \(/, 'the entry’s function');

  const at = /:(\d+):(\d+)\)$/.exec(frames[0] ?? '');
  t.ok(at, 'the frame has a line and a column');
  const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
  const hit = map.findEntry(Number(at?.[1]) - 1, Number(at?.[2]) - 1) as { originalSource?: string; originalLine?: number };
  t.match(hit.originalSource, /shelf\.js$/, 'the map names the module');
  t.equal((hit.originalLine ?? -1) + 1, SHELF.split('\n').findIndex((l) => l.includes('throw new Error')) + 1, 'and its line');
});
