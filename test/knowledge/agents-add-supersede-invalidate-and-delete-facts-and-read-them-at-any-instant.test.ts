// The knowledge tools against a real daemon over MCP: facts read from the example vault's People notes, answered at
// any instant; memory_add_fact supersedes with [until::] in one commit, skips near-duplicates, never supersedes a
// temporary fact, falls back to an entity note; invalidate and delete edit the line; the timeline keeps everything.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { EXAMPLE_VAULT, git } from '../helpers/daemon.js';
import { call, mcpClient, startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

const MAYA = readFileSync(path.join(EXAMPLE_VAULT, 'People/Maya Chen.md'), 'utf8');

t.test('facts are answered at an instant and edited through commits that keep their history', async (t) => {
  const s = await startToolDaemon({
    'People/Maya Chen.md': MAYA,
    'Projects/Atlas migration.md': '# Atlas migration\n\nMove the ledger.\n',
  });
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token, 'facts-agent');
  t.teardown(() => client.close());
  const commits = () => Number(git(s.v.dir, 'rev-list', '--count', 'HEAD').trim());
  const note = (rel = 'People/Maya Chen.md') => readFileSync(path.join(s.v.dir, rel), 'utf8');
  const worksAt = async (at?: string) =>
    (await call(client, 'memory_facts', { entity: 'maya chen', predicate: 'works_at', ...(at ? { at } : {}) })).body.facts.map(
      (f: { object: string }) => f.object,
    );

  t.same(await worksAt(), ['Ledgerline']);
  t.same(await worksAt('2025-06-01'), ['Rotterdam payments company'], 'the past, from [until::] in the note');
  const worksOn = (await call(client, 'memory_facts', { entity: 'Maya Chen', predicate: 'works_on' })).body.facts[0];
  t.match(worksOn, { object: 'Atlas migration', object_path: 'Projects/Atlas migration.md', path: 'People/Maya Chen.md' });

  // supersession: one commit, the old line ends, the new one begins the same day
  const c0 = commits();
  const add = await call(client, 'memory_add_fact', {
    subject: 'Maya Chen',
    predicate: 'works_at',
    object: 'Northwind',
    valid_from: '2026-12-01',
  });
  t.equal(add.isError, false, add.text);
  t.match(add.body, { outcome: 'superseded', path: 'People/Maya Chen.md', indexed: true });
  t.equal(add.body.superseded.length, 1);
  t.equal(commits(), c0 + 1, 'one commit');
  t.match(note(), '- works_at:: Ledgerline [from:: 2026-03-02] [until:: 2026-12-01]\n');
  t.match(note(), '- works_at:: Northwind [from:: 2026-12-01]\n');
  t.equal(note().split('\n')[add.body.line - 1], '- works_at:: Northwind [from:: 2026-12-01]', 'the line it says');
  t.ok(note().indexOf('Northwind') > note().indexOf('coffee::'), 'appended at the end of ## Facts');
  t.same(await worksAt('2026-11-30'), ['Ledgerline']);
  t.same(await worksAt('2026-12-01'), ['Northwind']);
  t.same(await worksAt('2024-01-01'), ['Rotterdam payments company'], 'history kept');

  // near-duplicates are no-ops: nothing written, no commit
  const dup = await call(client, 'memory_add_fact', {
    subject: 'Maya Chen',
    predicate: 'prefers',
    object: 'Written proposals to meetings!',
  });
  t.match(dup.body, { outcome: 'noop_dup', commit: null, fact: { object: 'written proposals to meetings' } });
  const notDup = await call(client, 'memory_add_fact', { subject: 'Maya Chen', predicate: 'prefers', object: 'short async standups' });
  t.match(notDup.body, { outcome: 'added' }, 'a multi-valued predicate takes a second value');
  t.equal(commits(), c0 + 2);

  // temporary facts never supersede
  for (const city of ['Lisbon', 'Porto']) {
    const r = await call(client, 'memory_add_fact', { subject: 'Maya Chen', predicate: 'staying_in', object: city });
    t.match(r.body, { outcome: 'added', superseded: [] });
  }
  t.same(
    (await call(client, 'memory_facts', { entity: 'Maya Chen', predicate: 'staying_in' })).body.facts.map(
      (f: { object: string }) => f.object,
    ),
    ['Lisbon', 'Porto'],
  );
  t.notMatch(note(), /staying_in::[^\n]*until/);

  // no note titled so: an entity note
  const acme = await call(client, 'memory_add_fact', { subject: 'Acme Corp', predicate: 'has_status', object: 'customer' });
  t.match(acme.body, { outcome: 'added', path: 'Memory/Entities/Acme Corp.md' });
  t.equal(note('Memory/Entities/Acme Corp.md'), '# Acme Corp\n\n## Facts\n\n- has_status:: customer\n');

  // invalidate and delete edit the line; the timeline keeps both
  const prefers = (await call(client, 'memory_facts', { entity: 'Maya Chen', predicate: 'prefers' })).body.facts;
  const [first, second] = prefers as Array<{ id: number; object: string }>;
  const inv = await call(client, 'memory_invalidate_fact', { id: first!.id, at: '2026-11-20' });
  t.equal(inv.isError, false, inv.text);
  t.match(note(), '- prefers:: written proposals to meetings [until:: 2026-11-20]\n');
  const del = await call(client, 'memory_delete_fact', { id: second!.id });
  t.equal(del.isError, false, del.text);
  t.notMatch(note(), 'short async standups');
  t.same((await call(client, 'memory_facts', { entity: 'Maya Chen', predicate: 'prefers' })).body.facts, []);
  t.same(
    (await call(client, 'memory_facts', { entity: 'Maya Chen', predicate: 'prefers', at: '2026-11-19' })).body.facts.map(
      (f: { object: string }) => f.object,
    ),
    ['written proposals to meetings'],
  );
  const tl = (await call(client, 'memory_timeline', { entity: 'Maya Chen' })).body.facts as Array<{
    predicate: string;
    object: string;
    invalidated_at: string | null;
  }>;
  t.ok(
    tl.some((f) => f.object === 'Rotterdam payments company'),
    'the timeline includes expired facts',
  );
  t.ok(
    tl.some((f) => f.object === 'short async standups' && f.invalidated_at !== null),
    'and deleted lines, invalidated',
  );
  t.same(
    (await call(client, 'memory_timeline', { entity: 'Atlas migration' })).body.facts.map((f: { subject: string }) => f.subject),
    ['Maya Chen'],
    'facts pointing at an entity are in its timeline',
  );
  t.equal(commits(), c0 + 7);

  const bad = await call(client, 'memory_add_fact', { subject: 'Maya Chen', predicate: 'Works At', object: 'x' });
  t.match(bad, { isError: true });
  t.match(bad.text, /snake_case/);
  t.match((await call(client, 'memory_invalidate_fact', { id: second!.id })).text, /not_found|no current fact/);
});
