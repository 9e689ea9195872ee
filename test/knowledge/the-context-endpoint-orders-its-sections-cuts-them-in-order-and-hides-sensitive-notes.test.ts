// POST /v1/context against a real daemon: USER.md, the owner's facts and those the query names, CHANNEL.md, today's
// fact log, search results, in that order with their sources; cut recalled → facts → dated at smaller budgets; a
// sensitive note's text and facts never appear; memory_context over MCP answers the same.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { EXAMPLE_VAULT, makeVault, startDaemon, testConfig } from '../helpers/daemon.js';
import { call, mcpClient } from '../gateway/tools/helpers/tool-daemon.js';

interface Section {
  name: string;
  dropped: number;
  items: Array<{ text: string; source: string }>;
}

t.test('the context has its sections in order, each with sources, and gives way in order', async (t) => {
  const v = makeVault({
    'USER.md': '---\ntitle: User\n---\n# About me\n\nI am Priya; short answers please.\n',
    'Channels/team/CHANNEL.md': '# Team channel\n\nBe brief; link notes.\n',
    'People/Priya.md': '# Priya\n\n## Facts\n\n- lives_in:: Berlin\n',
    'People/Maya Chen.md': readFileSync(path.join(EXAMPLE_VAULT, 'People/Maya Chen.md'), 'utf8'),
    'Projects/Offsite.md': '# Offsite\n\nThe offsite is in Lisbon in March; Maya Chen books the climbing gym.\n',
    'Private/Diary.md': '---\nsensitive: true\n---\n# Diary\n\n- mood:: gloomy-secret\nMaya Chen offsite diary gloomy-secret.\n',
  });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, 'writes:\n  enabled: true\nknowledge:\n  owner: Priya\n');
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const remembered = await d.tool('memory_remember', { content: 'Priya booked the offsite venue in Lisbon', wait_indexed: true });
  t.equal(remembered.status, 200, JSON.stringify(remembered.body));

  const ask = (body: Record<string, unknown>) => d.api('POST', '/v1/context', body);
  const full = await ask({ query: 'Where does Maya Chen work, and is the offsite booked?', channel: 'team', max_chars: 100_000 });
  t.equal(full.status, 200, JSON.stringify(full.body));
  const sections = full.body.sections as Section[];
  t.same(
    sections.map((s) => s.name),
    ['user', 'facts', 'channel', 'dated', 'recalled'],
  );
  const by = (name: string) => sections.find((s) => s.name === name)!;
  t.same(by('user').items, [{ text: '# About me\n\nI am Priya; short answers please.', source: 'USER.md' }]);
  const facts = by('facts').items;
  t.equal(facts[0]?.text, '- Priya · lives_in · Berlin', "the owner's facts first");
  t.ok(
    facts.some((f) => f.text === '- Maya Chen · works_at · Ledgerline (from 2026-03-02)' && /^People\/Maya Chen\.md:\d+$/.test(f.source)),
    'facts about what the query names, with their line',
  );
  t.notOk(
    facts.some((f) => /Rotterdam/.test(f.text)),
    'only current facts',
  );
  t.same(by('channel').items, [{ text: '# Team channel\n\nBe brief; link notes.', source: 'Channels/team/CHANNEL.md' }]);
  t.match(by('dated').items, [
    { text: /^- \[\d{4}-\d{2}-\d{2}\] Priya booked the offsite venue in Lisbon/, source: remembered.body.fact_id },
  ]);
  t.ok(
    by('recalled').items.some((i) => i.source === 'Projects/Offsite.md'),
    'search results for the query',
  );
  t.notOk(
    by('recalled').items.some((i) => i.source === remembered.body.fact_id),
    'a dated memory is not recalled twice',
  );
  t.notMatch(full.body.text, 'gloomy-secret', 'nothing from a sensitive note');
  t.equal(full.body.truncated, false);
  t.equal(full.body.chars, full.body.text.length);

  const facts0 = facts.length;
  const recalled0 = by('recalled').items.length;
  const cut = async (max: number) =>
    Object.fromEntries(
      (
        (await ask({ query: 'Where does Maya Chen work, and is the offsite booked?', channel: 'team', max_chars: max })).body
          .sections as Section[]
      ).map((s) => [s.name, s.items.length]),
    );
  t.same(await cut(full.body.chars - 1), { user: 1, facts: facts0, channel: 1, dated: 1, recalled: recalled0 - 1 });
  const noRecall = full.body.text.slice(0, full.body.text.indexOf('\n\n## Recalled')).length;
  t.same(await cut(noRecall), { user: 1, facts: facts0, channel: 1, dated: 1, recalled: 0 });
  t.same(await cut(noRecall - 1), { user: 1, facts: facts0 - 1, channel: 1, dated: 1, recalled: 0 });
  t.same(await cut(200), { user: 1, facts: 0, channel: 1, dated: 0, recalled: 0 }, 'USER.md and CHANNEL.md stay');

  const client = await mcpClient(d.url, d.token, 'ctx');
  t.teardown(() => client.close());
  const viaMcp = await call(client, 'memory_context', { query: 'Maya Chen', max_chars: 100_000 });
  t.same(
    viaMcp.body.sections.map((s: Section) => s.name),
    ['user', 'facts', 'dated', 'recalled'],
    'no channel asked: none',
  );
  t.equal((await ask({ channel: '../x' })).status, 400, 'a channel is a plain name');
});
