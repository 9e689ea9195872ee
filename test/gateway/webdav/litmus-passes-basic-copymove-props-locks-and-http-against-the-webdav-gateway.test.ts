// litmus (Debian's WebDAV conformance suite) against /dav/ of a real daemon: basic, copymove, props, locks and http
// must all pass — every PUT/DELETE/COPY/MOVE it makes lands in git as the WebDAV user, and .git stays out of reach.
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword } from '../../../actors/gateway/webdav/auth.js';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { missing } from '../../deploy/tools.js';

const skip = missing('litmus', 'litmus');
if (skip) t.comment(`skipped: ${skip}`);

function run(cmd: string, args: string[], env: Record<string, string> = {}, cwd?: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile(cmd, args, { env: { ...process.env, ...env }, cwd, timeout: 180_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    ),
  );
}

t.test('litmus: every test of basic, copymove, props, locks and http passes', { skip }, async (t) => {
  const hash = await hashPassword('litmus pass', Buffer.from('memvault-litmus-salt'));
  const s = await startToolDaemon(
    { 'People/Beta.md': '# Beta\n' },
    { extra: `webdav:\n  enabled: true\n  users:\n    - name: carol\n      email: carol@example.org\n      password_hash: "${hash}"\n` },
  );
  t.teardown(() => s.stop());
  // litmus writes debug.log into its working folder: a temp one, not the checkout
  const work = mkdtempSync(path.join(tmpdir(), 'memvault-litmus-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  const r = await run(
    'litmus',
    ['--keep-going', `${s.d.url}/dav/`, 'carol', 'litmus pass'],
    { TESTS: 'basic copymove props locks http' },
    work,
  );
  t.equal(r.code, 0, 'litmus exits 0');
  const summaries = r.out.split('\n').filter((l) => /^<- summary for/.test(l));
  t.equal(summaries.length, 5, 'five suites ran');
  for (const l of summaries) t.match(l, / 0 failed\./, l);
  t.same(
    r.out.split('\n').filter((l) => /FAIL|OOPS/.test(l)),
    [],
    'no test failed',
  );
  t.same(
    r.out.split('\n').filter((l) => /WARNING/.test(l)),
    [],
    'and no warning (a DELETE with a #fragment is refused, not run on the folder)',
  );

  // every change litmus made is a commit by carol; the test folder's files are in git history
  const log = await run('git', ['log', '--format=%an <%ae>|%s', '--name-only'], {}, s.v.dir);
  const authors = log.out
    .split('\n')
    .filter((l) => l.includes('|'))
    .map((l) => l.split('|')[0]);
  t.ok(authors.filter((a) => a === 'carol <carol@example.org>').length >= 10, 'litmus changes are committed as carol');
  t.match(log.out, /litmus\/res/, 'its files are in history');
  const status = await run('git', ['status', '--porcelain', '--untracked-files=all'], {}, s.v.dir);
  t.equal(
    status.out
      .split('\n')
      .filter((l) => l.includes('litmus'))
      .join('\n'),
    '',
    'nothing litmus left is uncommitted',
  );
});
