// WebDAV at /dav/ (read-only for now): `rclone sync` (Debian's rclone, a real WebDAV client) copies the vault down
// with basic auth against an scrypt hash — notes and attachments, never .git, .memvault, .obsidian or symlinks — and
// picks up a person's later edit; a wrong password gets 401, a write 405 saying why, a path out of the vault 404.
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashPassword } from '../../../actors/gateway/webdav/auth.js';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { missing } from '../../deploy/tools.js';

const skip = missing('rclone', 'rclone');
if (skip) t.comment(`skipped: ${skip}`);

function rclone(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile('rclone', args, { env: { ...process.env, ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    ),
  );
}

function tree(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? tree(dir, r) : [r];
  });
}

t.test('rclone syncs the vault down; hidden things and symlinks stay out; writes are refused', { skip }, async (t) => {
  const hash = await hashPassword('correct horse', Buffer.from('memvault-test-salt'));
  const s = await startToolDaemon(
    {
      'People/Beta.md': '# Beta\n\nBeta runs the billing team.\n',
      'Projects/Café plan.md': '# Café\n\nA plan with an accent.\n',
      'Projects/diagram.png': 'not really a png',
      '.obsidian/app.json': '{}',
    },
    { extra: `webdav:\n  enabled: true\n  users:\n    - name: alice\n      password_hash: "${hash}"\n` },
  );
  t.teardown(() => s.stop());
  const outside = mkdtempSync(path.join(tmpdir(), 'memvault-outside-'));
  writeFileSync(path.join(outside, 'secret.md'), '# Secret\n');
  symlinkSync(path.join(outside, 'secret.md'), path.join(s.v.dir, 'People/link.md'));
  symlinkSync(outside, path.join(s.v.dir, 'Outside'));
  const local = mkdtempSync(path.join(tmpdir(), 'memvault-rclone-'));
  t.teardown(() => rmSync(local, { recursive: true, force: true }));
  t.teardown(() => rmSync(outside, { recursive: true, force: true }));

  const obscured = await rclone(['obscure', 'correct horse'], {});
  t.equal(obscured.code, 0, 'rclone obscure');
  const env = {
    RCLONE_CONFIG_MV_TYPE: 'webdav',
    RCLONE_CONFIG_MV_URL: `${s.d.url}/dav/`,
    RCLONE_CONFIG_MV_VENDOR: 'other',
    RCLONE_CONFIG_MV_USER: 'alice',
    RCLONE_CONFIG_MV_PASS: obscured.out.trim(),
    RCLONE_CONFIG: '/dev/null',
  };
  const sync = await rclone(['sync', 'mv:', local], env);
  t.equal(sync.code, 0, sync.out);
  t.same(tree(local).sort(), ['People/Beta.md', 'Projects/Café plan.md', 'Projects/diagram.png'], 'notes and attachments only');
  for (const f of tree(local)) t.equal(readFileSync(path.join(local, f), 'utf8'), readFileSync(path.join(s.v.dir, f), 'utf8'), f);

  // a person edits a note; the next sync brings it down
  writeFileSync(path.join(s.v.dir, 'People/Beta.md'), '# Beta\n\nBeta now runs the payments team too.\n');
  const again = await rclone(['sync', 'mv:', local], env);
  t.equal(again.code, 0, again.out);
  t.match(readFileSync(path.join(local, 'People/Beta.md'), 'utf8'), /payments team/);
  t.ok(statSync(path.join(local, 'Projects/diagram.png')).isFile());

  const wrong = await rclone(['lsf', 'mv:'], { ...env, RCLONE_CONFIG_MV_PASS: (await rclone(['obscure', 'wrong'], {})).out.trim() });
  t.not(wrong.code, 0, 'a wrong password lists nothing');
  t.match(wrong.out, /401|Unauthorized/i);

  const auth = { authorization: `Basic ${Buffer.from('alice:correct horse').toString('base64')}` };
  const put = await fetch(`${s.d.url}/dav/Inbox/new.md`, { method: 'PUT', headers: auth, body: '# New\n' });
  t.equal(put.status, 405);
  t.match(await put.text(), /read-only/);
  for (const p of ['/dav/.git/config', '/dav/.memvault/token', '/dav/%2e%2e/etc/passwd', '/dav/People/link.md', '/dav/Outside/secret.md'])
    t.equal((await fetch(`${s.d.url}${p}`, { headers: auth })).status, 404, `${p} is not there`);
  const get = await fetch(`${s.d.url}/dav/People/Beta.md`, { headers: auth });
  const etag = get.headers.get('etag')!;
  t.equal(get.status, 200);
  t.equal((await fetch(`${s.d.url}/dav/People/Beta.md`, { headers: { ...auth, 'if-none-match': etag } })).status, 304, 'If-None-Match');
  t.equal((await fetch(`${s.d.url}/dav/`, { method: 'PROPFIND', headers: { ...auth, depth: '0' } })).status, 207);
});
