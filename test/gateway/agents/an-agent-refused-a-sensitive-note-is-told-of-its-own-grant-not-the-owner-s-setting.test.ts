// An agent's credential refused a sensitive note (vault_read, vault_link, memory_search with include_sensitive, a
// fact tool on a fact in it) is told what would let it in: a credential granted `--sensitive`. The owner's setting,
// writes.agents_may_read_sensitive, changes nothing for an agent credential, so naming it would send the agent's
// developer the wrong way; the owner token is still pointed at the setting.
import t from 'tap';
import { call, mcpClient, startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, mcpAs, toolAs } from './helpers.js';

const FILES = {
  'Inbox/Plain.md': '# Plain\n\nabout [[Vera]]\n',
  'People/Vera.md': '---\nsensitive: true\n---\n# Vera\n\nprivate heron thoughts\n\n## Facts\n\n- lives_in:: Zurich\n',
};

t.test('an agent refused a sensitive note is told of the --sensitive grant, the owner of the setting', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const plain = agent(s.cfg.data_dir, 'plain', { scope: 'write' });
  const trusted = agent(s.cfg.data_dir, 'trusted', { scope: 'read', sensitive: true });
  const facts = await toolAs(s.d.url, trusted, 'memory_facts', { entity: 'Vera' });
  const id = facts.body.facts[0]?.id;
  t.type(id, 'number', `the sensitive note's fact is indexed: ${JSON.stringify(facts.body)}`);

  const refusals: Array<[string, Record<string, unknown>]> = [
    ['vault_read', { path: 'People/Vera.md' }],
    ['vault_link', { path: 'People/Vera.md' }],
    ['memory_search', { query: 'heron', filters: { include_sensitive: true } }],
    ['memory_invalidate_fact', { id }],
    ['memory_delete_fact', { id }],
  ];
  const client = await mcpAs(s.d.url, plain);
  t.teardown(() => client.close());
  for (const [tool, args] of refusals) {
    for (const [transport, r] of [
      ['http', (await toolAs(s.d.url, plain, tool, args)).body],
      ['mcp', (await call(client, tool, args)).body],
    ] as const) {
      t.match(
        r,
        {
          error: {
            reason: 'sensitive',
            message: /agent plain was not granted --sensitive.*memvault agents add NAME --scope SCOPE --sensitive/,
          },
        },
        `${tool} over ${transport}: the agent is told of the grant`,
      );
      t.notMatch(r.error.message, /agents_may_read_sensitive/, `${tool} over ${transport}: not of the owner's setting`);
      t.notMatch(r.error.message, /heron|Zurich/, `${tool} over ${transport}: no content in the message`);
    }
  }

  const owner = await mcpClient(s.d.url, s.d.token);
  t.teardown(() => owner.close());
  for (const [tool, args] of refusals) {
    t.match(
      (await call(owner, tool, args)).body,
      { error: { reason: 'sensitive', message: /writes\.agents_may_read_sensitive: true/ } },
      `${tool}: the owner token is pointed at the setting`,
    );
  }
  t.equal(s.writes.seen.length, 0, 'no refused call reached the git writer');
});
