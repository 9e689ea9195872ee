// One note a person's daemon user may not read (chmod 000) made `git add` refuse the whole batch of that person's
// edits, retried for good: none reached git (helper-33's finding). It is now left out with a warning and the rest
// are committed. Run as nobody when the test runs as root (root reads any file), in a process of its own.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'helpers/unreadable-note-child.js');

t.test('the readable edits are committed and the unreadable note is named in a warning', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-unreadable-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const root = process.getuid?.() === 0;
  if (root) chownSync(dir, 65534, 65534);
  const env = { PATH: process.env['PATH'] ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
  const [cmd, args] = root
    ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, child, dir]]
    : [process.execPath, [child, dir]];
  const out = JSON.parse(execFileSync(cmd, args, { env, encoding: 'utf8' }));
  chmodSync(path.join(dir, 'locked.md'), 0o644);
  t.match(out.result, { ok: true, paths: ['a.md', 'b.md'] }, JSON.stringify(out));
  t.match(out.warnings, [/^locked\.md: cannot be read \(permissions\), so not committed; the other edits are$/]);
  const st = execFileSync('git', ['-C', dir, '-c', `safe.directory=${dir}`, 'status', '--porcelain'], { encoding: 'utf8' });
  t.equal(st.trim(), 'M locked.md', 'only the locked note is left, for later');
});
