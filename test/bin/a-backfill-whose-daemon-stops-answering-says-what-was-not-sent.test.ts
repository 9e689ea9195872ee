// `memvault backfill` through a daemon that stopped answering half way (killed) counted every episode it could not
// send as rejected — 19,000 "rejected" that the daemon never saw — and kept sending batch after batch to nobody. It
// now stops, counts only what the daemon refused, and says the rest was not sent and that a rerun is safe.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';
import { standInDaemon } from '../helpers/stand-in-daemon.js';

t.test('the first batch accepted, then the daemon gone: 1,000 accepted, 0 rejected, and why the rest was not sent', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# A\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  let posts = 0;
  await standInDaemon(t, cfg, (req, res) => {
    if (req.url !== '/v1/episodes') return void res.writeHead(404).end('{}');
    posts++;
    if (posts > 1) return void req.socket.destroy(); // killed after the first batch
    req.resume();
    req.on('end', () => res.end(JSON.stringify({ accepted: 1000, episode_ids: [] })));
  });
  const file = path.join(path.dirname(v.dir), 'chat.jsonl');
  const lines = Array.from({ length: 2500 }, (_, i) =>
    JSON.stringify({ type: 'chat', session_id: 's', message_id: String(i), role: 'user', text: `message number ${i}` }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = await memvault(['backfill', '--vault', v.dir, '--source', 'chat', '--from', file, '--json'], {
    MEMVAULT_DATA_DIR: cfg.data_dir,
  });
  t.equal(r.code, 1, 'exit 1');
  const chat = JSON.parse(r.stdout).results.find((x: { source: string }) => x.source === 'chat');
  t.match(chat, { accepted: 1000, rejected: 0 });
  t.match(chat.error, /^the daemon stopped answering \(.*\); this batch and the rest were not sent .* run the backfill again/);
  t.equal(posts, 2, 'nothing more was sent after the daemon stopped answering');
});
