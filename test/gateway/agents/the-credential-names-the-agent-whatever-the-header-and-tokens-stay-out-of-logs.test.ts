// The credential is the identity: an agent's commits, searches (recall log) and audit lines carry its own name
// whatever X-Memvault-Agent says (the header still names callers of the owner token). No token — the owner's, an
// agent's, or a wrong one sent — ever shows in the log, the audit trail, /metrics, /v1/status or an error.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { httpCall, makeVault, startDaemon } from '../../helpers/daemon.js';
import { call, toolConfig } from '../tools/helpers/tool-daemon.js';
import { agent, commits, mcpAs, toolAs } from './helpers.js';
import { keyIdOf } from '../../../actors/gateway/agents/store.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile());
}

t.test('the header cannot change attribution, and tokens never reach logs', async (t) => {
  const v = makeVault({ 'Inbox/Seed.md': '# Seed\n\nkingfisher notes\n' });
  t.teardown(() => v.cleanup());
  const cfg = toolConfig(v.dir, { logLevel: 'debug' });
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const tok = agent(cfg.data_dir, 'scribe', { scope: 'write' });

  t.equal((await toolAs(d.url, tok, 'vault_write', { path: 'Inbox/S.md', content: '# S\n' }, 'owner-impostor')).status, 200);
  t.equal(commits(v.dir)[0]!.agent, 'scribe', 'the commit trailer names the credential, not the header');
  const client = await mcpAs(d.url, tok, 'someone-else');
  t.match((await call(client, 'vault_write', { path: 'Inbox/T.md', content: '# T\n' })).body, { op: 'write' });
  await call(client, 'memory_search', { query: 'kingfisher', mode: 'bm25' });
  await client.close();
  t.equal(commits(v.dir)[0]!.agent, 'scribe', 'over MCP too');
  const ownerWrite = await httpCall(
    d.url,
    'POST',
    '/v1/tools/vault_write',
    { path: 'Inbox/O.md', content: '# O\n' },
    { token: d.token, agent: 'cli-bot' },
  );
  t.equal(ownerWrite.status, 200);
  t.equal(commits(v.dir)[0]!.agent, 'cli-bot', 'the owner token is still named by its header');

  // a wrong token of the right shape, and one that is nearly the owner's
  const wrong = `mv_${'x'.repeat(43)}`;
  const r1 = await httpCall(d.url, 'POST', '/v1/search', { query: 'x' }, { token: wrong });
  t.equal(r1.status, 401);
  const r2 = await httpCall(d.url, 'GET', '/v1/status', undefined, { token: `${d.token}x` });
  t.equal(r2.status, 401);
  const refusals = JSON.stringify(r1.body) + JSON.stringify(r2.body);
  t.notOk(refusals.includes('mv_xxxx') || refusals.includes(d.token), 'the refusal does not echo the token');
  const status = await httpCall(d.url, 'GET', '/v1/status', undefined, { token: tok });
  const metrics = await httpCall(d.url, 'GET', '/metrics', undefined, { token: null });
  t.match(metrics.body, /memvault_agent_calls_total\{agent="scribe",tool="vault_write",outcome="ok"\} 2/, 'calls counted per agent');
  await d.stop();

  const recall = readFileSync(filesUnder(path.join(cfg.data_dir, 'recall'))[0]!, 'utf8');
  t.match(recall, /"caller":"scribe"/, 'the recall log names the credential');
  const audit = filesUnder(path.join(cfg.data_dir, 'audit'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('');
  t.match(audit, /"agent":"scribe","kind":"agent","tool":"vault_write"/);
  t.notMatch(audit, /impostor|someone-else/, 'the header never names an agent');
  t.match(
    audit,
    /"agent":"anonymous","kind":"anonymous","tool":"route:search","transport":"http","path":"\/v1\/search","outcome":"unauthorized"/,
  );

  const log = filesUnder(path.join(cfg.data_dir, 'logs'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('');
  t.ok(log.includes('gateway_request'), 'the log was written at debug level (the scan below sees real lines)');
  const everything = [
    log,
    audit,
    recall,
    JSON.stringify(status.body),
    String(metrics.body),
    readFileSync(path.join(cfg.data_dir, 'agents.json'), 'utf8'),
  ].join('\n');
  for (const [what, secret] of [
    ['the agent token', tok],
    ['the agent token without its prefix', tok.slice(3)],
    ['the owner token', d.token],
    ['the wrong token', wrong],
  ] as const)
    t.notOk(everything.includes(secret), `${what} appears nowhere`);
  t.ok(everything.includes(keyIdOf(tok)), 'agents.json holds only the key id and a hash');
});
