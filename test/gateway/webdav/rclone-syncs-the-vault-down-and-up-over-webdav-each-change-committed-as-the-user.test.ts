// WebDAV at /dav/: `rclone sync` (Debian's rclone, a real WebDAV client) copies the vault down with basic auth against
// an scrypt hash — notes and attachments, never .git, .memvault, .obsidian or symlinks — picks up a person's later
// edit, and syncs local edits back up: each PUT/DELETE/MOVE is one commit authored by the WebDAV user. A stale
// If-Match is 412 with the person's text kept; a wrong password gets 401; paths out of the vault 403/404/409.
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
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

t.test('rclone syncs the vault down and up; hidden things and symlinks stay out; stale writes are refused', { skip }, async (t) => {
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
  const refused: [string, number][] = [
    ['/dav/.git/config', 403],
    ['/dav/.memvault/x', 403],
    ['/dav/People/link.md', 403], // a symlink: never written through
    ['/dav/Outside/new.md', 409], // its folder is a symlink out of the vault
    ['/dav/a%2F..%2F..%2Fescape.md', 403],
    ['/dav/People%2Fencoded.md', 403], // an encoded slash is refused, not read as a folder
  ];
  for (const [p, status] of refused)
    t.equal((await fetch(`${s.d.url}${p}`, { method: 'PUT', headers: auth, body: 'x' })).status, status, `PUT ${p} is refused`);
  t.equal(readFileSync(path.join(outside, 'secret.md'), 'utf8'), '# Secret\n', 'nothing written outside');
  for (const p of [
    '/dav/.git/config',
    '/dav/.memvault/token',
    '/dav/%2e%2e/etc/passwd',
    '/dav/People/link.md',
    '/dav/Outside/secret.md',
    '/dav/People%2FBeta.md',
  ])
    t.equal((await fetch(`${s.d.url}${p}`, { headers: auth })).status, 404, `${p} is not there`);
  const get = await fetch(`${s.d.url}/dav/People/Beta.md`, { headers: auth });
  const etag = get.headers.get('etag')!;
  t.equal(get.status, 200);
  t.equal((await fetch(`${s.d.url}/dav/People/Beta.md`, { headers: { ...auth, 'if-none-match': etag } })).status, 304, 'If-None-Match');
  t.equal((await fetch(`${s.d.url}/dav/`, { method: 'PROPFIND', headers: { ...auth, depth: '0' } })).status, 207);

  // edits on both sides: the person edits one note on the server, then the local copy changes three things
  const git = async (args: string[]) =>
    new Promise<string>((resolve) => execFile('git', args, { cwd: s.v.dir }, (_e, out) => resolve(String(out))));
  const head0 = (await git(['rev-parse', 'HEAD'])).trim();
  writeFileSync(path.join(s.v.dir, 'Projects/Café plan.md'), '# Café\n\nThe person changed the plan on the server.\n');
  const down = await rclone(['sync', 'mv:', local], env);
  t.equal(down.code, 0, down.out);
  t.match(readFileSync(path.join(local, 'Projects/Café plan.md'), 'utf8'), /changed the plan/);
  writeFileSync(path.join(local, 'People/Beta.md'), '# Beta\n\nEdited locally, synced up.\n');
  writeFileSync(path.join(local, 'Inbox.md'), '# Inbox\n\nA new note from the laptop.\n');
  unlinkSync(path.join(local, 'Projects/diagram.png'));
  writeFileSync(path.join(local, 'Projects/sketch.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  const up = await rclone(['sync', local, 'mv:'], env);
  t.equal(up.code, 0, up.out);
  t.match(readFileSync(path.join(s.v.dir, 'People/Beta.md'), 'utf8'), /synced up/);
  t.match(readFileSync(path.join(s.v.dir, 'Inbox.md'), 'utf8'), /from the laptop/);
  t.notOk(existsSync(path.join(s.v.dir, 'Projects/diagram.png')), 'the local delete reached the vault');
  t.match(readFileSync(path.join(s.v.dir, 'Projects/Café plan.md'), 'utf8'), /changed the plan/, 'the server-side edit kept');
  t.ok(existsSync(path.join(s.v.dir, '.obsidian/app.json')), 'hidden files untouched by sync up');
  const hist = (await git(['log', '--format=%an|%s', '--name-status', `${head0}..HEAD`])).trim();
  const byAlice = hist.split('\n').filter((l) => l.startsWith('alice|')).length;
  t.ok(byAlice >= 3, `each synced change is a commit by alice:\n${hist}`);
  t.match(hist, /M\tPeople\/Beta\.md/);
  t.match(hist, /A\tInbox\.md/);
  t.match(hist, /A\tProjects\/sketch\.png/, 'attachments are committed too');
  const status = (await git(['status', '--porcelain', '--untracked-files=all'])).split('\n');
  t.same(
    status.filter((l) => /Beta|Inbox|sketch/.test(l)),
    [],
    'nothing synced up is left uncommitted',
  );

  // a stale If-Match: the person changed the note since the client read it → 412, the person's text stays
  const read = await fetch(`${s.d.url}/dav/People/Beta.md`, { headers: auth });
  const seen = read.headers.get('etag')!;
  await read.text();
  const persons = async () =>
    Number(/memvault_worktree_changes_total\{by="person"\} (\d+)/.exec(String((await s.d.api('GET', '/metrics')).body))?.[1] ?? 0);
  const seenBefore = await persons();
  writeFileSync(path.join(s.v.dir, 'People/Beta.md'), '# Beta\n\nThe person wrote this meanwhile, longer.\n');
  const stale = await fetch(`${s.d.url}/dav/People/Beta.md`, {
    method: 'PUT',
    headers: { ...auth, 'if-match': seen },
    body: '# Beta\n\nclobber\n',
  });
  t.equal(stale.status, 412, 'stale If-Match is 412');
  t.match(readFileSync(path.join(s.v.dir, 'People/Beta.md'), 'utf8'), /meanwhile/, 'nothing lost');
  // once the git writer has seen the person's edit (it waits writes.human_quiet_ms to commit it), a WebDAV write of
  // the same note commits the person's text first, as theirs: history keeps both
  for (let i = 0; i < 2000 && (await persons()) === seenBefore; i++) await new Promise((r) => setImmediate(r));
  const fresh = (await fetch(`${s.d.url}/dav/People/Beta.md`, { method: 'HEAD', headers: auth })).headers.get('etag')!;
  const ok = await fetch(`${s.d.url}/dav/People/Beta.md`, {
    method: 'PUT',
    headers: { ...auth, 'if-match': fresh },
    body: '# Beta\n\nmerged\n',
  });
  t.equal(ok.status, 204, 'a current If-Match writes');
  t.ok(ok.headers.get('x-memvault-commit'), 'and answers with its commit');
  const betaLog = await git(['log', '-p', '--format=@%an', '-3', '--', 'People/Beta.md']);
  t.match(
    betaLog,
    /^@alice[\s\S]*\+merged[\s\S]*@vault owner[\s\S]*\+The person wrote this meanwhile/,
    'the person’s edit is its own commit, before alice’s',
  );
  t.equal((await fetch(`${s.d.url}/dav/New.md`, { method: 'PUT', headers: { ...auth, 'if-none-match': '*' }, body: 'a' })).status, 201);
  t.equal(
    (await fetch(`${s.d.url}/dav/New.md`, { method: 'PUT', headers: { ...auth, 'if-none-match': '*' }, body: 'b' })).status,
    412,
    'If-None-Match: * never overwrites',
  );
  const mv = await fetch(`${s.d.url}/dav/New.md`, { method: 'MOVE', headers: { ...auth, destination: `${s.d.url}/dav/People/Moved.md` } });
  t.equal(mv.status, 201);
  const last = await git(['show', '--name-status', '--format=%an <%ae>', 'HEAD']);
  t.match(last, /^alice <alice@webdav>/, 'MOVE authored by the WebDAV user');
  t.match(last, /New\.md/);
  t.match(last, /People\/Moved\.md/);
  t.equal(
    (await fetch(`${s.d.url}/dav/People/Moved.md`, { method: 'MOVE', headers: { ...auth, destination: `${s.d.url}/dav/.git/x` } })).status,
    403,
    'never into .git',
  );
  const del = await fetch(`${s.d.url}/dav/People/Moved.md`, { method: 'DELETE', headers: auth });
  t.equal(del.status, 204);
  t.match(
    await git(['show', '--name-status', '--format=%an', 'HEAD']),
    /^alice\n[\s\S]*D\tPeople\/Moved\.md/,
    'DELETE is one commit by alice',
  );
});
