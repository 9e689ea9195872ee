// A memvault.yaml holding `text` in a directory of its own, removed when the test ends: the config tests' input.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The file's path; `dir` is the directory it is in (some tests point the vault there). */
export function configFile(t: { teardown(fn: () => void): void }, text: string | ((dir: string) => string)): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-cfg-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'memvault.yaml');
  writeFileSync(file, typeof text === 'function' ? text(dir) : text);
  return file;
}
