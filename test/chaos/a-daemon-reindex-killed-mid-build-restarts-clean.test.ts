// POST /v1/reindex under kill -9: the daemon (its own process) is killed the moment its reindex makes
// index.next.sqlite, then started again. The next start removes the half-built file and its claim; notes, a remembered
// fact and a chat turn are all found (once) from the index the daemon kept; git status is clean and doctor ok.
import { readdirSync, watch } from 'node:fs';
import t from 'tap';
import { within } from '../helpers/daemon.js';
import { afterRestart, rig } from './kill9-write-paths.js';

const files: Record<string, string> = {};
for (let i = 0; i < 20; i++) files[`Projects/p${i}.md`] = `# P${i}\n\nThe glaze batch g${i}q fires at cone six.\n`;

t.test('a daemon killed during its reindex starts clean with everything found once', { timeout: 120_000 }, async (t) => {
  const r = await rig(t, files);
  await r.d.start();
  await r.d.caughtUp();
  const ep = await r.d.api('POST', '/v1/episodes', {
    episodes: [{ type: 'chat', session_id: 's1', message_id: 'm1', role: 'user', text: 'the zanzibar shipment leaves on friday' }],
  });
  t.equal(ep.status, 200);
  t.equal((await r.d.api('POST', '/v1/episodes/sessions/s1/close', {})).status, 200);
  const f = await r.d.tool('memory_remember', { content: 'Bob keeps a pangolin named Kiwi', wait_indexed: true }, 'alice');
  t.equal(f.status, 200, JSON.stringify(f.body));

  const appeared = new Promise<void>((resolve) => {
    const w = watch(r.dataDir, (_e, name) => {
      if (name === 'index.next.sqlite') {
        w.close();
        resolve();
      }
    });
  });
  const reindex = r.d.api('POST', '/v1/reindex', {}).catch((err: Error) => err);
  await within(appeared, 60_000, 'the reindex to make index.next.sqlite');
  await r.d.kill9();
  t.ok((await reindex) instanceof Error, 'the reindex was never answered');

  await r.d.start();
  await r.d.caughtUp();
  t.same(
    readdirSync(r.dataDir).filter((n) => n.startsWith('index.next.')),
    [],
    'the start removed the half-built index and its claim',
  );
  t.same(await afterRestart(r), [], 'git status clean, doctor ok');
  const search = async (q: string) => JSON.stringify((await r.d.api('POST', '/v1/search', { query: q, mode: 'bm25', k: 30 })).body);
  t.match(await search('g7q glaze'), /p7\.md/, 'notes are found');
  t.equal((await search('pangolin Kiwi')).split('pangolin').length - 1 >= 1, true, 'the fact is found');
  t.equal((await search('zanzibar shipment')).split('"session_id":"s1"').length - 1, 1, 'the chat turn is found once');
  const again = await r.d.api('POST', '/v1/reindex', {});
  t.equal(again.status, 200, `a reindex after the restart finishes: ${JSON.stringify(again.body)}`);
  t.equal((await search('zanzibar shipment')).split('"session_id":"s1"').length - 1, 1, 'the chat turn is still found once');
  t.match(await search('pangolin Kiwi'), /pangolin/, 'and the fact');
});
