// `memvault start` with a templates.dir override that does not render is a configuration error at start — exit 78,
// the file and line named — not a daemon that fails its first note (or dream run) at night; the dream prompts included,
// and a file there that replaces no template (a misspelt name, a file outside vault/ and llm/) named too.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, REPO, testConfig } from '../../helpers/daemon.js';
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

t.test('an override file that replaces nothing (a misspelt name, outside vault/ and llm/): exit 78 naming it', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# a\n' });
  t.teardown(() => v.cleanup());
  const dir = path.join(path.dirname(v.dir), 'my-templates');
  mkdirSync(path.join(dir, 'vault'), { recursive: true });
  const good = readFileSync(path.join(REPO, 'prompts/vault/daily_reflection.liquid'), 'utf8');
  writeFileSync(path.join(dir, 'daily_reflection.liquid'), good);
  writeFileSync(path.join(dir, 'vault', 'daily_reflectoin.liquid'), good);
  writeFileSync(path.join(dir, 'vault', 'README.md'), 'my overrides\n');
  const cfg = testConfig(v.dir, 'templates:\n  dir: ./my-templates\n');
  const r = await memvault(['start', '--vault', v.dir, '--config', cfg.config_file!], {}, { timeoutMs: 30_000 });
  t.equal(r.code, 78, 'a configuration error, not a daemon drafting with the bundled template');
  t.match(r.stderr, /my-templates\/daily_reflection\.liquid: replaces no template .*vault\/ takes meeting_note, daily_reflection/);
  t.match(r.stderr, /my-templates\/vault\/daily_reflectoin\.liquid: replaces no template/);
  t.notMatch(r.stderr, /README\.md/, 'files other than templates are left alone');
  const doctor = await memvault(['doctor', '--vault', v.dir, '--config', cfg.config_file!]);
  t.match(
    doctor.stdout,
    /FAIL\s+templates\s+templates: .*my-templates\/daily_reflection\.liquid: replaces no template/,
    'doctor says so too',
  );
});
