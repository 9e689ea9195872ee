// No LLM configured, or one that does not answer: the LLM-driven jobs show `idle` with the reason in /v1/status,
// GET /v1/jobs and `memvault status`, a run is `skipped` with that reason, and search and writes keep working. When
// the endpoint comes back, the next call finds it and the state turns ready.
import t from 'tap';
import { skillAnswer, skillDaemon } from './helpers/skill-daemon.js';
import { memvault } from '../helpers/run-cli.js';

t.test('no llm section: idle, not configured; everything else runs', async (t) => {
  const s = await skillDaemon(t, { llm: false, skills: { daily_reflection: '{ enabled: true }' } });
  const st = await s.d.api('GET', '/v1/status');
  t.match(st.body.llm, { state: 'idle', reason: /^llm_not_configured: no `llm` section/ });
  const jobs = (await s.d.api('GET', '/v1/jobs')).body;
  t.match(
    jobs.jobs.find((j: { name: string }) => j.name === 'daily_reflection'),
    { enabled: true, state: 'idle', reason: /^llm_not_configured/ },
  );
  const r = await s.run('daily_reflection', { date: '2026-11-19' });
  t.match(r.body, { outcome: 'skipped', reason: /^llm_not_configured/ });
  t.equal(s.llm.requests.length, 0);
  t.equal(s.note('Reflections/2026-11-19.md'), null);
  const hits = await s.d.search('why did we pick SQLite for the desktop cache', { mode: 'bm25' });
  t.ok(hits.results.length > 0, 'search answers');
  const w = await s.d.tool('vault_write', { path: 'Inbox/still writable.md', content: '# yes\n' }, 'agent-1');
  t.equal(w.status, 200, 'writes work');
  const cli = await memvault(['status', '--vault', s.v.dir, '--config', s.d.cfg.config_file!]);
  t.match(cli.stdout, /llm:\s+idle — llm_not_configured/);
});

t.test('an endpoint that is down: idle with the reason; when it answers again the state turns ready', async (t) => {
  const s = await skillDaemon(t);
  // the start-up probe found it up; now it stops answering chat calls: refused connections look the same to the client
  await t.resolves(waitFor(async () => (await s.d.api('GET', '/v1/status')).body.llm.state === 'ready'));
  s.llm.respond(() => ({ status: 503, body: 'loading model' }));
  const r = await s.run('daily_reflection', { date: '2026-11-19' });
  t.match(r.body, { outcome: 'failed', reason: /^llm_server_error/ });
  t.equal(s.llm.chats().length, 2, 'tried once and retried max_retries (1) times');
  t.equal(s.note('Reflections/2026-11-19.md'), null);
  const st = await s.d.api('GET', '/v1/status');
  t.match(st.body.llm, { state: 'idle', reason: /^llm_server_error: the endpoint keeps answering 5xx/ });
  const jobs = (await s.d.api('GET', '/v1/jobs')).body;
  t.match(jobs.llm, { state: 'idle', reason: /^llm_server_error/ });
  s.llm.respond(skillAnswer); // the model has loaded
  const asked = await s.run('daily_reflection', { date: '2026-11-19' });
  t.match(asked.body, { outcome: 'written' }, 'a run someone asks for tries the endpoint again');
  t.match((await s.d.api('GET', '/v1/status')).body.llm, { state: 'ready', reason: null }, 'and finds it back');
});

async function waitFor(probe: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
