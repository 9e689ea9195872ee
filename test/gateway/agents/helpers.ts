// Agents for tests: credentials added to a real daemon's data dir (agents.json, as `memvault agents add` writes it),
// and real clients holding them — MCP over Streamable HTTP and plain HTTP.
import { addAgent, type Grant } from '../../../actors/gateway/agents/store.js';
import { git, httpCall, makeVault, startDaemon, testConfig, type HttpAnswer } from '../../helpers/daemon.js';
import { startEmbeddingsServer } from '../../embedder/providers/helpers/embeddings-server.js';
import { mcpClient, startToolDaemon } from '../tools/helpers/tool-daemon.js';

export function agent(dataDir: string, name: string, grant: Partial<Grant> & Pick<Grant, 'scope'>): string {
  const r = addAgent(dataDir, { name, folders: null, sensitive: false, rate: null, ...grant }, new Date());
  if (!r.ok) throw new Error(r.message);
  return r.result.token;
}

/** POST /v1/tools/<name> with `token` (and an X-Memvault-Agent header when `header` is given). */
export function toolAs<T = any>(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
  header?: string,
): Promise<HttpAnswer<T>> {
  return httpCall<T>(url, 'POST', `/v1/tools/${name}`, args, { token, ...(header !== undefined ? { agent: header } : {}) });
}

export const mcpAs = (url: string, token: string, header?: string) => mcpClient(url, token, header);

/** The vault's commits, newest first: subject and Memvault-Agent trailer. */
export function commits(vault: string): Array<{ subject: string; agent: string | null }> {
  return git(vault, 'log', '--format=%s%x00%(trailers:key=Memvault-Agent,valueonly,unfold)%x01')
    .split('\x01')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [subject, agentName] = s.split('\0');
      return { subject: subject!, agent: agentName?.trim() || null };
    });
}

/**
 * A daemon on a one-note vault with two write agents, alpha and beta, and a way to post episodes as either. `held`:
 * its embeddings come from a stand-in server whose answers the test can hold (`emb.hold()`), so episodes stay pending.
 */
export async function twoAgents(t: { teardown(fn: () => unknown): void }, opts: { held?: boolean } = {}) {
  const emb = opts.held ? await startEmbeddingsServer(8) : null;
  if (emb) t.teardown(() => emb.close());
  const v = makeVault({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(
    v.dir,
    emb ? `embedder:\n  provider: openai\n  openai:\n    base_url: ${JSON.stringify(emb.baseUrl)}\n    model: stand-in\n` : '',
  );
  const d = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const alpha = agent(cfg.data_dir, 'alpha', { scope: 'write' });
  const beta = agent(cfg.data_dir, 'beta', { scope: 'write' });
  const post = (tok: string, episodes: unknown[]) => httpCall(d.url, 'POST', '/v1/episodes', { episodes }, { token: tok });
  return { emb, v, cfg, d, alpha, beta, post };
}

/** A tool daemon on a one-note vault with two write agents, alpha and beta, and an admin agent, boss (their tokens). */
export async function alphaBetaBoss(t: { teardown(fn: () => unknown): void }) {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  const alpha = agent(s.cfg.data_dir, 'alpha', { scope: 'write' });
  const beta = agent(s.cfg.data_dir, 'beta', { scope: 'write' });
  const boss = agent(s.cfg.data_dir, 'boss', { scope: 'admin' });
  return { s, alpha, beta, boss };
}

/** A chat message as POST /v1/episodes takes it. */
export const chatEpisode = (session: string, id: string, role: string, text: string) => ({
  type: 'chat',
  session_id: session,
  message_id: id,
  role,
  text,
});
