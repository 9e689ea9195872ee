// deploy/systemd/memvault.service passes `systemd-analyze verify` (a unit that names a missing program does not, so
// the check is real), and starts the daemon the way the README says.
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEPLOY, missing, run } from './tools.js';

const UNIT = path.join(DEPLOY, 'systemd', 'memvault.service');
const text = readFileSync(UNIT, 'utf8');

function canVerify(): string | false {
  const gone = missing('systemd-analyze', 'systemd');
  if (gone) return gone;
  // some containers ship the binary but cannot load units at all; a minimal valid unit tells
  const dir = mkdtempSync(path.join(tmpdir(), 'memvault-unit-'));
  try {
    writeFileSync(path.join(dir, 'probe.service'), '[Service]\nType=oneshot\nExecStart=/bin/true\n');
    const r = run('systemd-analyze', ['verify', path.join(dir, 'probe.service')]);
    return r.status === 0 ? false : `systemd-analyze cannot verify units in this container: ${r.out.trim().slice(0, 200)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const skip = canVerify();
if (skip) t.comment(`skipped: ${skip}`);

t.test('the unit runs memvault start with a config, restarts on failure and is sandboxed', async (t) => {
  t.match(text, /^ExecStart=\S*node \S*bin\/memvault start --config \S+$/m);
  t.match(text, /^Restart=on-failure$/m);
  t.match(text, /^User=memvault$/m);
  t.match(text, /^ProtectSystem=strict$/m);
  t.match(text, /^ReadWritePaths=\S+$/m, 'the vault and data dir stay writable');
  t.match(text, /^WantedBy=multi-user.target$/m);
});

t.test('systemd-analyze verify accepts the unit and refuses a broken copy', { skip }, async (t) => {
  const node = run('sh', ['-c', 'command -v node']).out.trim();
  const dir = mkdtempSync(path.join(tmpdir(), 'memvault-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // the unit names /usr/bin/node; on a machine where node lives elsewhere, verify the copy that points at it
  const unit = path.join(dir, 'memvault.service');
  writeFileSync(unit, text.replace('/usr/bin/node', node));
  const ok = run('systemd-analyze', ['verify', unit]);
  t.equal(ok.status, 0, ok.out);
  t.notMatch(ok.out, /memvault\.service:\d+:/, `no warnings about the unit: ${ok.out}`);

  const broken = path.join(dir, 'broken.service');
  writeFileSync(broken, text.replace('/usr/bin/node', '/nonexistent/node').replace('Restart=on-failure', 'Restart=sometimes'));
  const bad = run('systemd-analyze', ['verify', broken]);
  t.not(bad.status, 0, 'a unit that names a missing program fails verification');
  t.match(bad.out, /nonexistent\/node|sometimes/);
});
