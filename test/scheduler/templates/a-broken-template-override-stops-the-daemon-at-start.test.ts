// `memvault start` with a templates.dir override that does not render is a configuration error at start — exit 78,
// the file and line named — not a daemon that fails its first note at night.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../../helpers/daemon.js';
import { memvault } from '../../helpers/run-cli.js';

t.test('a broken override: exit 78 naming the file and line', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# a\n' });
  t.teardown(() => v.cleanup());
  const tpl = path.join(path.dirname(v.dir), 'my-templates', 'vault');
  mkdirSync(tpl, { recursive: true });
  writeFileSync(path.join(tpl, 'person_stub.liquid'), '---\ntype: person\nname: {{ name | shout }}\n---\n');
  const cfg = testConfig(v.dir, 'templates:\n  dir: ./my-templates\n');
  const r = await memvault(['start', '--vault', v.dir, '--config', cfg.config_file!]);
  t.equal(r.code, 78, 'a configuration error');
  t.match(r.stderr, /my-templates\/vault\/person_stub\.liquid line 3: undefined filter: shout/);
});
