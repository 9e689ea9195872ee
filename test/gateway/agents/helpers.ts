// Agents for tests: credentials added to a real daemon's data dir (agents.json, as `memvault agents add` writes it),
// and real clients holding them — MCP over Streamable HTTP and plain HTTP.
import { addAgent, type Grant } from '../../../actors/gateway/agents/store.js';
import { git, httpCall, type HttpAnswer } from '../../helpers/daemon.js';
import { mcpClient } from '../tools/helpers/tool-daemon.js';

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
