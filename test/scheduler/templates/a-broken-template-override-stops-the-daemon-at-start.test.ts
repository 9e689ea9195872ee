// `memvault start` with a templates.dir override that does not render is a configuration error at start — exit 78,
// the file and line named — not a daemon that fails its first note (or dream run) at night; the dream prompts included.
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

t.test('a broken override of the dream prompts: exit 78 too, not a dream run that fails at night', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# a\n' });
  t.teardown(() => v.cleanup());
  const tpl = path.join(path.dirname(v.dir), 'my-templates', 'llm');
  mkdirSync(tpl, { recursive: true });
  writeFileSync(path.join(tpl, 'dream.liquid'), 'Consolidate {{ batch }}.\n\n{{ mood }}\n');
  writeFileSync(
    path.join(tpl, 'dream_memory_md.liquid'),
    'Rewrite MEMORY.md.\n{% for p in pages %}{{ p.path }} {{ p.folder }}{% endfor %}\n',
  );
  const cfg = testConfig(v.dir, 'templates:\n  dir: ./my-templates\n');
  const r = await memvault(['start', '--vault', v.dir, '--config', cfg.config_file!], {}, { timeoutMs: 30_000 });
  t.equal(r.code, 78, 'a configuration error');
  t.match(r.stderr, /my-templates\/llm\/dream\.liquid line 3: undefined variable: mood/);
  t.match(r.stderr, /my-templates\/llm\/dream_memory_md\.liquid line 2: undefined variable: p\.folder/);
  const doctor = await memvault(['doctor', '--vault', v.dir, '--config', cfg.config_file!]);
  t.match(
    doctor.stdout,
    /FAIL\s+templates\s+templates: .*my-templates\/llm\/dream\.liquid line 3: undefined variable: mood/,
    'doctor says so too',
  );
});
