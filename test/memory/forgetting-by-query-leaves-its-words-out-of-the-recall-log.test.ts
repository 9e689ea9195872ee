// memory_forget by query searches the facts to find what to forget, but that search is not a recall: the words of what
// is being forgotten are not kept in the recall log (<data dir>/recall/*.jsonl), nor is the fact counted as recalled
// there for consolidation. An ordinary search is still logged.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

t.test('forgetting by query leaves its words out of the recall log', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  const d = s.d;
  const dir = path.join(s.cfg.data_dir, 'recall');
  const recallLog = () =>
    existsSync(dir)
      ? readdirSync(dir)
          .map((f) => readFileSync(path.join(dir, f), 'utf8'))
          .join('')
      : '';
  const fact = await d.tool('memory_remember', { content: 'My salary is 71500 quokkas a year', wait_indexed: true });
  t.equal(fact.status, 200);

  const listed = await d.tool('memory_forget', { query: 'salary 71500 quokkas' });
  t.equal(listed.status, 200);
  t.equal(listed.body.candidates[0].fact_id, fact.body.fact_id);
  const gone = await d.tool('memory_forget', { query: 'salary 71500 quokkas', confirm: true });
  t.equal(gone.status, 200, JSON.stringify(gone.body));

  // a search after them is logged; the recall log appends in order, so once it is there, theirs would be too
  t.equal((await d.tool('memory_search', { query: 'wombat marker' })).status, 200);
  for (let i = 0; i < 100 && !recallLog().includes('wombat marker'); i++) await new Promise((r) => setTimeout(r, 50));
  const log = recallLog();
  t.match(log, 'wombat marker', 'an ordinary search is logged');
  t.notMatch(log, '71500', 'the forget query is not');
  t.notMatch(log, fact.body.fact_id, 'nor is the forgotten fact counted as recalled');
});
