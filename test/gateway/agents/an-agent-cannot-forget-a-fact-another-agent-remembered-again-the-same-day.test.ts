// The same fact remembered the same day by two agents (other tags) is one document of both lines, and a tombstone
// hides every copy: the agent that logged it first must not forget it, since that would also forget the other
// agent's line. An admin may, and an agent's fact that only it logged again is forgotten as before.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { alphaBetaBoss, toolAs } from './helpers.js';

t.test('an agent cannot forget a fact another agent remembered again the same day', async (t) => {
  const { s, alpha, beta, boss } = await alphaBetaBoss(t);
  const url = s.d.url;
  const search = async (q: string) =>
    (await s.d.search(q, { mode: 'bm25', filters: { source_type: 'fact' } })).results.map((r: any) => r.snippet as string);

  const first = await toolAs(url, alpha, 'memory_remember', {
    content: 'The heron feeder key is blue',
    tags: ['garden'],
    wait_indexed: true,
  });
  const again = await toolAs(url, beta, 'memory_remember', { content: 'The heron feeder key is blue', tags: ['shed'], wait_indexed: true });
  t.equal(again.body.fact_id, first.body.fact_id, 'one fact: the same content the same day');
  t.same(await search('shed'), ['The heron feeder key is blue #shed'], "beta's line is found");

  const refused = await toolAs(url, alpha, 'memory_forget', { fact_id: first.body.fact_id });
  t.equal(refused.status, 403, JSON.stringify(refused.body));
  t.equal(refused.body.error.reason, 'forbidden');
  t.equal(
    refused.body.error.message,
    `fact ${first.body.fact_id} was remembered by another agent; only an admin credential may forget it`,
    "the refusal says the fact itself is another agent's",
  );
  t.same(await search('shed'), ['The heron feeder key is blue #shed'], "beta's line is still found");
  t.notOk(existsSync(path.join(s.v.dir, 'Memory/tombstones.jsonl')), 'no tombstone was written');
  t.equal((await toolAs(url, beta, 'memory_forget', { fact_id: first.body.fact_id })).status, 403, 'nor may beta');

  const own = await toolAs(url, alpha, 'memory_remember', { content: 'Alpha counted nine herons', tags: ['a'], wait_indexed: true });
  await toolAs(url, alpha, 'memory_remember', { content: 'Alpha counted nine herons', tags: ['b'], wait_indexed: true });
  t.equal(
    (await toolAs(url, alpha, 'memory_forget', { fact_id: own.body.fact_id })).status,
    200,
    'its own fact, logged twice, is forgotten',
  );

  t.equal((await toolAs(url, boss, 'memory_forget', { fact_id: first.body.fact_id })).status, 200, 'an admin may forget it');
  t.same(await search('heron feeder'), [], 'then neither line is found');
});
