// After `make test`: the test files that failed, each with its failing points and their diagnostics, read from the
// TAP that tap saved for every file (.tap/test-results). The chaos run comes after the other files, so a failure among
// those had scrolled far above the end of the log; this puts it at the end, where a CI log's tail shows it.
// Usage: node dist/test/helpers/failed-files.js [results dir]   (exits 1 when a file failed)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Parser } from 'tap-parser';

const LINES_PER_FILE = 60;

/** Every `.tap` file under `dir`, by path (none when tap saved nothing: it stopped before any file ran). */
function tapFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.tap'))
    .map((f) => path.join(dir, f))
    .sort();
}

function passed(tap: string): boolean {
  let ok = false;
  const p = new Parser((results) => {
    ok = results.ok;
  });
  p.end(tap);
  return ok;
}

/**
 * The failing points at any depth, each assertion with its YAML diagnostics (a failed subtest's own line only: its
 * diagnostics say where the subtest was declared); the file's tail when nothing failed by name (killed, timed out).
 */
export function failureExcerpt(tap: string): string[] {
  const lines = tap.split('\n');
  const out: string[] = [];
  let previous = ''; // the last non-empty line before this one: a subtest's plan right before its `not ok`
  for (const [i, line] of lines.entries()) {
    const before = previous;
    if (line.trim() !== '') previous = line;
    if (!/^\s*not ok\b/.test(line) || /#\s*(TODO|SKIP)\b/i.test(line)) continue;
    out.push(line);
    const endsSubtest = /^\s+1\.\.\d+/.test(before);
    if (!endsSubtest && /^\s*---\s*$/.test(lines[i + 1] ?? ''))
      for (const yaml of lines.slice(i + 1)) {
        out.push(yaml);
        if (/^\s*\.\.\.\s*$/.test(yaml)) break;
      }
  }
  const shown = out.length > 0 ? out : ['(no failing point named: the file ended like this)', ...lines.slice(-20)];
  return shown.length > LINES_PER_FILE ? [...shown.slice(0, LINES_PER_FILE), `… ${shown.length - LINES_PER_FILE} more lines`] : shown;
}

/** The result files under `dir` whose TAP did not pass, each with its excerpt. */
export function failedFiles(dir: string): Array<{ file: string; excerpt: string[] }> {
  return tapFiles(dir).flatMap((file) => {
    const tap = readFileSync(file, 'utf8');
    return passed(tap) ? [] : [{ file: path.relative(dir, file).replace(/\.tap$/, ''), excerpt: failureExcerpt(tap) }];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? '.tap/test-results';
  if (!existsSync(dir)) console.log(`\nno test results under ${dir}: tap stopped before any test file ran`);
  const failed = failedFiles(dir);
  if (failed.length > 0) {
    console.log(`\n${failed.length} test file(s) failed:`);
    for (const f of failed) console.log(`\n== ${f.file}\n${f.excerpt.join('\n')}`);
    console.log(`\nfailed: ${failed.map((f) => f.file).join(' ')}`);
  }
  process.exitCode = failed.length > 0 ? 1 : 0;
}
