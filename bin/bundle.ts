// `make build`'s last step: each entry a thread or process starts from (the actors, the embedding pool's task, the git
// spawner, the command line) bundled with its dependencies under dist/bundle/, mirroring dist/; code behind a dynamic
// import() or shared by entries is split into dist/bundle/chunks/. A new thread then loads a few dozen files instead of
// hundreds; supervisors/runtime/code-files.ts picks the bundle only while it is newer than tsc's last compile. Native
// modules and packages that start workers by file stay outside.
// Run: node dist/bin/bundle.js (after tsc).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { ACTORS } from '../supervisors/actors.js';
import { BUNDLE_DIR, DIST_DIR } from '../supervisors/runtime/code-files.js';

/** Loaded from their own files at run time: native addons, and packages that start threads from a file of theirs. */
const EXTERNAL = [
  'better-sqlite3',
  'onnxruntime-node',
  '@parcel/watcher',
  'sqlite-vec',
  'piscina',
  'pino',
  'thread-stream',
  '@huggingface/tokenizers',
];

/** Relative to dist/: every actor's worker module (the actor table names them relative to supervisors/), and the rest. */
export const ENTRIES = [
  ...Object.values(ACTORS).map((a) => path.posix.join('supervisors', a.file)),
  'actors/embedder/pool-task.js',
  'actors/git-writer/spawner-process.js',
  'bin/cli.js',
];

/**
 * esbuild's settings for the bundles. Split: code shared by entries, and code behind a dynamic `import()` (each
 * command of the command line, the gateway's MCP half, the embedder's providers), goes to its own file under
 * `chunks/`, so a thread parses and holds only what it loads (the daemon's main thread held every command's code in
 * one 2.2 MB source). Whitespace and syntax minified, names kept: a stack trace still names each function as written
 * (`keepNames` undoes esbuild's renaming of clashing names for functions; a method's frame names a renamed class
 * `Name2`, as before), and the source map beside each file maps a line and column back to the module and its
 * TypeScript.
 */
export const BUNDLE_OPTIONS = {
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  // CommonJS dependencies inside an ES module still call require()
  banner: { js: "import { createRequire as __memvaultRequire } from 'node:module'; const require = __memvaultRequire(import.meta.url);" },
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  sourcemap: true,
  logLevel: 'warning',
} satisfies BuildOptions;

export async function bundle(): Promise<{ files: number; ms: number }> {
  const started = performance.now();
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  await build({
    ...BUNDLE_OPTIONS,
    entryPoints: ENTRIES.map((e) => path.join(DIST_DIR, e)),
    outbase: DIST_DIR,
    outdir: BUNDLE_DIR,
  });
  for (const f of readdirSync(BUNDLE_DIR, { recursive: true, encoding: 'utf8' }).filter((x) => x.endsWith('.js'))) {
    const file = path.join(BUNDLE_DIR, f);
    const code = readFileSync(file, 'utf8');
    const ascii = asciiOnly(code);
    if (ascii !== code) writeFileSync(file, ascii);
  }
  return { files: ENTRIES.length, ms: performance.now() - started };
}

/**
 * The bundle with every character above U+007F written as a \uXXXX escape. esbuild escapes them in strings, regular
 * expressions and names (its ASCII charset) but keeps comments as written, and one `—` in a comment makes V8 hold the
 * whole source two bytes a character in every thread that loads it (the gateway's 2.1 MB bundle took 4.2 MB of its
 * heap). Escaped, code means the same wherever such a character can stand (string, template, regular expression,
 * name: a pair of escapes for one outside the BMP), and a comment reads the escape.
 */
export function asciiOnly(code: string): string {
  return code.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(DIST_DIR, 'bin', 'bundle.js')) {
  const r = await bundle();
  process.stdout.write(`bundled ${r.files} entries into ${path.relative(process.cwd(), BUNDLE_DIR)} in ${Math.round(r.ms)} ms\n`);
}
