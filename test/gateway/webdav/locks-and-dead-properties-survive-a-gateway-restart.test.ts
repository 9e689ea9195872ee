// WebDAV locks and dead properties outlive the gateway: a lock taken and a property set before the gateway's thread
// crashes are there after its supervisor restarts it (a PUT without the token is still 423, with it 2xx), UNLOCK and a
// DELETE clear them on disk too; a damaged state file does not stop the gateway, which starts without locks.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { hashPassword } from '../../../actors/gateway/webdav/auth.js';
import { davStateFiles } from '../../../actors/gateway/webdav/dav-state.js';
import type { SupervisorEvent } from '../../../supervisors/events.js';
import { startToolDaemon, type ToolDaemon } from '../tools/helpers/tool-daemon.js';

const AUTH = `Basic ${Buffer.from('alice:correct horse').toString('base64')}`;

async function dav(s: ToolDaemon, method: string, p: string, headers: Record<string, string> = {}, body?: string) {
  const r = await fetch(new URL(`/dav/${p}`, s.d.url), {
    method,
    headers: { authorization: AUTH, ...headers },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

/** Crashes the gateway's thread and resolves once its supervisor has it serving again. */
async function restartGateway(s: ToolDaemon): Promise<void> {
  const d = s.d.daemon;
  const back = new Promise<void>((resolve) => {
    const off = d.onSupervisor((e: SupervisorEvent) => {
      if (e.type === 'supervisor.child_restarted' && e.child === 'gateway') {
        off();
        resolve();
      }
    });
  });
  await d.handles.gateway!.crash('the WebDAV state test restarts the gateway');
  await back;
}

const LOCKINFO =
  '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>alice laptop</D:owner></D:lockinfo>';
const SET_COLOR =
  '<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:x-test"><D:set><D:prop><Z:color>green</Z:color></D:prop></D:set></D:propertyupdate>';
const ASK =
  '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:x-test"><D:prop><D:lockdiscovery/><Z:color/></D:prop></D:propfind>';

t.test('a lock and a dead property survive a gateway restart; a damaged state file is not fatal', async (t) => {
  const hash = await hashPassword('correct horse', Buffer.from('memvault-test-salt'));
  const s = await startToolDaemon(
    { 'People/Beta.md': '# Beta\n\nBeta runs the billing team.\n', 'People/Gamma.md': '# Gamma\n' },
    { extra: `webdav:\n  enabled: true\n  users:\n    - name: alice\n      password_hash: "${hash}"\n` },
  );
  t.teardown(() => s.stop());
  const files = davStateFiles(s.cfg.data_dir);

  const locked = await dav(s, 'LOCK', 'People/Beta.md', { timeout: 'Second-600', depth: '0', 'content-type': 'application/xml' }, LOCKINFO);
  t.equal(locked.status, 200, locked.text);
  const token = /<([^>]+)>/.exec(locked.headers.get('lock-token') ?? '')?.[1] ?? '';
  t.match(token, /^urn:uuid:/);
  const patched = await dav(s, 'PROPPATCH', 'People/Beta.md', { if: `(<${token}>)`, 'content-type': 'application/xml' }, SET_COLOR);
  t.equal(patched.status, 207);
  t.match(patched.text, /200 OK/);
  t.match(readFileSync(files.locks, 'utf8'), token, 'the lock is on disk');
  t.match(readFileSync(files.props, 'utf8'), /green/, 'the property is on disk');

  await restartGateway(s);

  const after = await dav(s, 'PROPFIND', 'People/Beta.md', { depth: '0', 'content-type': 'application/xml' }, ASK);
  t.equal(after.status, 207);
  t.match(after.text, token, 'the lock is still there');
  t.match(after.text, /alice laptop/, 'with its owner');
  t.match(after.text, /<Z:color[^>]*>green<\/Z:color>|>green</, 'and the dead property');
  t.equal((await dav(s, 'PUT', 'People/Beta.md', {}, '# Beta\n\nNot mine to change.\n')).status, 423, 'without the token: still locked');
  const put = await dav(s, 'PUT', 'People/Beta.md', { if: `(<${token}>)` }, '# Beta\n\nBeta runs billing and payroll.\n');
  t.ok(put.status === 204 || put.status === 201, `with the token: written (${put.status})`);
  const unlocked = await dav(s, 'UNLOCK', 'People/Beta.md', { 'lock-token': `<${token}>` });
  t.equal(unlocked.status, 204);
  t.same(JSON.parse(readFileSync(files.locks, 'utf8')), [], 'UNLOCK clears it on disk');
  t.equal((await dav(s, 'DELETE', 'People/Beta.md')).status, 204);
  t.same(JSON.parse(readFileSync(files.props, 'utf8')), [], 'a DELETE takes its properties with it');

  // a second lock, then the file damaged: the gateway starts anyway, without locks, and serves
  const again = await dav(s, 'LOCK', 'People/Gamma.md', { timeout: 'Second-600', depth: '0', 'content-type': 'application/xml' }, LOCKINFO);
  t.equal(again.status, 200);
  writeFileSync(files.locks, '{not json');
  await restartGateway(s);
  const gamma = await dav(s, 'PROPFIND', 'People/Gamma.md', { depth: '0', 'content-type': 'application/xml' }, ASK);
  t.equal(gamma.status, 207, 'the gateway serves after a damaged state file');
  t.notMatch(gamma.text, /urn:uuid:/, 'and holds no lock');
  t.equal((await dav(s, 'PUT', 'People/Gamma.md', {}, '# Gamma\n\nUnlocked now.\n')).status, 204);
});
