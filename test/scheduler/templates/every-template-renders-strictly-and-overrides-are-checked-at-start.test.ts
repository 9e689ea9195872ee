// Every bundled template renders with its sample variables under strict variables and filters, each note template's
// frontmatter parses with its type, key and `autowritten_by`; a missing variable is an error, never an empty string;
// an override in templates.dir replaces the bundled one, and a broken override is a problem naming its file and line.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { loadTemplates, TemplateError, Templates } from '../../../actors/scheduler/templates/engine.js';
import { LLM_SAMPLES, LLM_TEMPLATES, VAULT_SAMPLES, VAULT_TEMPLATES } from '../../../actors/scheduler/templates/vars.js';

function tmp(t: { teardown(fn: () => void): void }): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'memvault-tpl-'));
  t.teardown(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

t.test('each note template renders its sample into a note with valid frontmatter', async (t) => {
  const tpl = new Templates();
  t.same(tpl.check(), [], 'no problems in the bundled templates');
  for (const name of VAULT_TEMPLATES) {
    const n = tpl.renderNote(name, VAULT_SAMPLES[name]);
    t.equal(n.frontmatter['idempotency_key'], VAULT_SAMPLES[name].key, `${name}: key`);
    t.equal(n.frontmatter['autowritten_by'], 'memvault', `${name}: autowritten_by`);
    t.match(n.body, /^# /, `${name}: a heading follows the frontmatter`);
    t.notMatch(n.text, /undefined|\[object Object\]/, `${name}: nothing unrendered`);
  }
  const m = tpl.renderNote('meeting_note', VAULT_SAMPLES.meeting_note);
  t.same(m.frontmatter['attendees'], ['[[People/Maya Chen]]', '[[Sofia Marques]]'], 'attendees as links');
  t.match(m.body, /With \[\[People\/Maya Chen\]\], \[\[Sofia Marques\]\]\./);
  const empty = tpl.renderNote('meeting_note', { ...VAULT_SAMPLES.meeting_note, attendees: [] });
  t.same(empty.frontmatter['attendees'], [], 'no attendees: an empty list, still valid YAML');
  const odd = tpl.renderNote('meeting_note', {
    ...VAULT_SAMPLES.meeting_note,
    event: { ...VAULT_SAMPLES.meeting_note.event, summary: 'Q&A: "roadmap" #2 — [draft]' },
  });
  t.equal(odd.frontmatter['title'], '2026-11-19 Q&A: "roadmap" #2 — [draft]', 'YAML-hostile text is quoted');
  const p = tpl.renderNote('person_profile', VAULT_SAMPLES.person_profile);
  t.equal(p.frontmatter['stub'], false, 'a profile clears the stub flag (frontmatter merges keep old keys)');
  t.match(parse(tpl.renderNote('person_stub', VAULT_SAMPLES.person_stub).text.split('---')[1]!), {
    type: 'person',
    name: 'Sofia Marques',
    stub: true,
  });
});

t.test('each LLM prompt renders its sample', async (t) => {
  const tpl = new Templates();
  for (const name of LLM_TEMPLATES) t.ok(tpl.renderLlm(name, LLM_SAMPLES[name] as never).length > 40, `${name} renders`);
  t.match(tpl.renderLlm('commitment_log', LLM_SAMPLES.commitment_log), /I'll send the export by Friday/);
  t.match(tpl.renderLlm('system', LLM_SAMPLES.system), /Today is 2026-11-19 \(Europe\/Berlin\)/);
});

t.test('a missing variable is an error naming the file and line, not an empty string', async (t) => {
  const tpl = new Templates();
  const { draft: _d, ...noDraft } = VAULT_SAMPLES.daily_reflection;
  const err = t.throws(() => tpl.renderNote('daily_reflection', noDraft as never)) as unknown as TemplateError;
  t.ok(err instanceof TemplateError);
  t.match(err.file, /prompts\/vault\/daily_reflection\.liquid$/);
  t.type(err.line, 'number');
  t.match(err.detail, /undefined variable: draft/);
});

t.test('an override replaces the bundled template; a broken one is named with its line', async (t) => {
  const dir = tmp(t);
  mkdirSync(path.join(dir, 'vault'));
  mkdirSync(path.join(dir, 'llm'));
  writeFileSync(
    path.join(dir, 'vault', 'person_stub.liquid'),
    '---\ntype: person\nname: {{ name | json }}\nstub: true\nidempotency_key: {{ key | json }}\nautowritten_by: memvault\n---\n# {{ name }} (stub, our house style)\n',
  );
  const ok = loadTemplates({ templates: { dir }, config_file: path.join(dir, 'memvault.yaml') });
  t.same(ok.problems, []);
  t.match(ok.templates?.renderNote('person_stub', VAULT_SAMPLES.person_stub).body, /our house style/);
  t.match(ok.templates?.fileOf('vault', 'person_stub'), dir);
  t.match(ok.templates?.fileOf('vault', 'meeting_note'), /prompts\/vault\/meeting_note\.liquid$/, 'the rest stay bundled');

  writeFileSync(path.join(dir, 'llm', 'daily_reflection.liquid'), 'Reflect on {{ date }}.\n{% for m in meetings %}\n{{ m.title }}\n');
  const syntax = loadTemplates({ templates: { dir }, config_file: null });
  t.equal(syntax.templates, null);
  t.match(syntax.problems, [{ path: new RegExp(`${dir}/llm/daily_reflection\\.liquid line 2$`), rule: /not closed/ }]);

  writeFileSync(path.join(dir, 'llm', 'daily_reflection.liquid'), 'Reflect on {{ date }}.\n\n{{ mood }}\n');
  const unknownVar = loadTemplates({ templates: { dir }, config_file: null });
  t.match(
    unknownVar.problems,
    [{ path: /daily_reflection\.liquid line 3$/, rule: /undefined variable: mood/ }],
    'found at start by rendering the sample',
  );

  writeFileSync(path.join(dir, 'llm', 'daily_reflection.liquid'), 'Reflect on {{ date }}.\n');
  writeFileSync(path.join(dir, 'vault', 'person_stub.liquid'), '# {{ name }}\n');
  const noFm = loadTemplates({ templates: { dir }, config_file: null });
  t.match(noFm.problems, [{ path: /person_stub\.liquid line 1$/, rule: /must start with a YAML frontmatter block/ }]);

  t.match(loadTemplates({ templates: { dir: path.join(dir, 'nope') }, config_file: null }).problems, [
    { path: 'templates.dir', rule: /does not exist/ },
  ]);
});
