// MCP clients are told at initialize how the tools fit together and which folders they may write, from
// prompts/mcp-instructions.liquid rendered with strict variables for this vault's settings.
import t from 'tap';
import { mcpInstructions } from '../../../actors/gateway/tools/instructions.js';
import { mcpClient, startToolDaemon } from './helpers/tool-daemon.js';

t.test('a daemon with writes on names its writable folders to MCP clients', async (t) => {
  const s = await startToolDaemon({ 'Inbox/a.md': '# A\n' });
  t.teardown(() => s.stop());
  const client = await mcpClient(s.d.url, s.d.token, 'reader');
  t.teardown(() => client.close());
  const text = client.getInstructions() ?? '';
  t.match(text, /memory_search/, 'how the tools fit together');
  t.match(text, new RegExp(`in these top-level folders only: ${s.cfg.writes.allowlist.join(', ')}\\.`), 'the allowlist, as configured');
});

t.test('with writes off the instructions say so, and a template missing a variable fails loudly', async (t) => {
  const off = mcpInstructions({ writable: [] });
  t.match(off, /Writing is off for this vault/);
  t.notMatch(off, /vault_write/, 'no write advice when nothing may be written');
  t.throws(() => mcpInstructions({} as never), /writable/, 'strict variables: a missing setting is an error, not an empty string');
});
