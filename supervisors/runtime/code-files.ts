// Where memvault's compiled code lives, and which copy of an entry module a thread or process starts from: the bundle
// `make build` writes under dist/bundle/ (one file per entry with its dependencies, so a new thread loads a handful of
// modules instead of hundreds: a daemon starts ~30 % sooner), or the plain tsc output in dist/ when there is no bundle
// or tsc has compiled since it was made (a stale bundle is never run).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'memvault') return dir;
    if (path.dirname(dir) === dir) throw new Error(`memvault's package.json not found above ${from}`);
  }
}

/** The folder holding memvault's package.json, prompts/ and dist/, wherever this module runs from (dist or a bundle). */
export const PACKAGE_ROOT = packageRoot(path.dirname(fileURLToPath(import.meta.url)));
export const DIST_DIR = path.join(PACKAGE_ROOT, 'dist');
export const BUNDLE_DIR = path.join(DIST_DIR, 'bundle');
const mtime = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

/**
 * The file to start for `rel` (a path under `dist`, or under `dist/bundle`): its bundle when there is one no older than
 * tsc's incremental state (`.tsbuildinfo`, rewritten whenever tsc compiles), else the plain module; always the plain
 * module with MEMVAULT_BUNDLES=0 in the environment.
 */
export function pickEntry(dist: string, rel: string, env: NodeJS.ProcessEnv = process.env): string {
  const own = rel.startsWith(`bundle${path.sep}`) || rel.startsWith('bundle/') ? rel.slice('bundle'.length + 1) : rel;
  if (env['MEMVAULT_BUNDLES'] === '0') return path.join(dist, own); // plain modules asked for (debugging, bench/daemon-start)
  const bundled = path.join(dist, 'bundle', own);
  const b = mtime(bundled);
  const compiled = mtime(path.join(dist, '.tsbuildinfo'));
  return b !== null && (compiled === null || b >= compiled) ? bundled : path.join(dist, own);
}

/** The module to start for the entry at `rel` under dist/ (e.g. `actors/git-writer/spawner-process.js`). */
export function entry(rel: string): URL {
  return pathToFileURL(pickEntry(DIST_DIR, rel));
}
