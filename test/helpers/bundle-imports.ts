// What a bundle under dist/bundle loads: the files its relative imports name, read from the bundle's own text (the
// split chunks import each other by relative path; packages outside the bundle are not followed).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const STATIC = /(?:^|[;}\s])(?:import|export)\s*(?:[\w${},*\s]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** The files `file` imports: statically, or through `import()` with `dynamic`. */
export function importsOf(file: string, dynamic = false): string[] {
  return [...readFileSync(file, 'utf8').matchAll(dynamic ? DYNAMIC : STATIC)].map((m) => path.resolve(path.dirname(file), m[1] ?? ''));
}

/** Every file `from` loads through static imports (and dynamic ones with `dynamic`), themselves included. */
export function loadedFiles(from: string[], dynamic = false): Set<string> {
  const seen = new Set<string>();
  const todo = [...from];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...importsOf(f), ...(dynamic ? importsOf(f, true) : []));
  }
  return seen;
}
