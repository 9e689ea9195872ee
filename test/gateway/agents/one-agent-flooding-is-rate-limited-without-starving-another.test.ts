// Two agents, one flooding: the flooder gets 429 with Retry-After once its bucket is empty, while every call of the
// other agent, made during the flood, is answered.
import t from 'tap';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { agent, toolAs } from './helpers.js';

t.test('one busy agent never starves the others', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n\nsome words\n' });
  t.teardown(() => s.stop());
  const flood = agent(s.cfg.data_dir, 'flood', { scope: 'read', rate: '5/s' });
  const calm = agent(s.cfg.data_dir, 'calm', { scope: 'read', rate: '5/s' });
  const read = (tok: string) => toolAs(s.d.url, tok, 'vault_read', { path: 'Inbox/Seed.md' });

  const flooding = Array.from({ length: 80 }, () => read(flood));
  const calmCalls = Array.from({ length: 5 }, () => read(calm));
  const [f, c] = await Promise.all([Promise.all(flooding), Promise.all(calmCalls)]);
  t.same(
    c.map((r) => r.status),
    [200, 200, 200, 200, 200],
    'every call of the calm agent is answered',
  );
  const limited = f.filter((r) => r.status === 429);
  t.ok(limited.length >= 60, `the flooder is limited (${limited.length} of 80 refused)`);
  t.ok(
    limited.every((r) => Number(r.retryAfter) >= 1 && r.body.error.reason === 'rate_limited'),
    'each 429 says rate_limited and when to retry',
  );
  t.equal((await toolAs(s.d.url, s.d.token, 'vault_read', { path: 'Inbox/Seed.md' })).status, 200, 'the owner token is not limited');
});
