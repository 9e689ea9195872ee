// Every tool lists an outputSchema, and what it answers — results and `isError` results alike — is structuredContent
// that conforms to it, with the same JSON as text: checked with the SDK's own client (which validates on every
// call) over Streamable HTTP with the token header and over stdio (`memvault mcp`), and again with ajv by hand.
import t, { type Test } from 'tap';
import { Ajv } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { mcpClient, startToolDaemon, stdioClient } from './helpers/tool-daemon.js';

const FILES = {
  'People/Beta.md': '# Beta\n\nBeta runs the billing team with [[Gamma]].\n',
  'People/Gamma.md': '# Gamma\n\nGamma works with [[Beta]] on the launch. [[Nowhere]]\n',
};

// one call per tool that succeeds, and one per tool that fails, in an order that leaves something to undo
const CALLS: Array<[string, Record<string, unknown>, boolean]> = [
  ['vault_read', { path: 'People/Beta.md' }, false],
  ['vault_read', { path: 'People/Nobody.md' }, true],
  ['vault_write', { path: 'Inbox/Heron.md', content: '# Heron\n\nThe grey heron fishes at dawn.\n', wait_indexed: true }, false],
  ['vault_write', { path: '../escape.md', content: 'x' }, true],
  ['vault_list', { recursive: true }, false],
  ['vault_list', { recursive: 'yes' }, true],
  ['vault_link', { path: 'People/Gamma.md' }, false],
  ['vault_link', { path: 'People/Nobody.md' }, true],
  ['memory_search', { query: 'heron at dawn', k: 3 }, false],
  ['memory_search', { query: 'heron', k: 0 }, true],
  ['memory_remember', { content: 'Beta prefers tea', category: 'people', wait_indexed: true }, false],
  ['memory_remember', { content: '' }, true],
  ['memory_forget', { query: 'Beta prefers tea' }, false],
  ['memory_forget', {}, true],
  ['vault_undo_last', {}, false],
  ['vault_undo_last', { only_mine: 'no' }, true],
  ['memory_add_fact', { subject: 'Beta', predicate: 'likes', object: 'herons' }, false],
  ['memory_add_fact', { subject: 'Beta' }, true],
  ['memory_facts', { entity: 'Beta' }, false],
  ['memory_facts', { at: 'someday' }, true],
  ['memory_timeline', { entity: 'Beta' }, false],
  ['memory_invalidate_fact', { id: 999_999 }, true],
  ['memory_delete_fact', { id: 999_999 }, true],
  ['memory_context', { query: 'heron', max_chars: 2000 }, false],
];

async function exercise(t: Test, client: Client, via: string): Promise<void> {
  const { tools } = await client.listTools(); // the SDK client caches the schemas and validates every call from here on
  t.equal(tools.length, 14, `${via}: fourteen tools`);
  const ajv = new Ajv({ strict: false });
  const byName = new Map<string, Tool>(tools.map((x) => [x.name, x]));
  for (const x of tools) {
    t.equal(x.outputSchema?.type, 'object', `${via}: ${x.name} declares an outputSchema`);
    t.ok(ajv.validateSchema(x.outputSchema as object), `${via}: ${x.name}'s outputSchema is valid JSON Schema`);
  }
  for (const [name, args, fails] of CALLS) {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const what = `${via}: ${name} ${JSON.stringify(args).slice(0, 60)}`;
    t.equal(r.isError === true, fails, `${what} ${fails ? 'fails' : 'succeeds'}`);
    const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
    t.same(JSON.parse(text), r.structuredContent, `${what}: the text is the same JSON`);
    const validate = ajv.compile(byName.get(name)!.outputSchema as object);
    t.ok(validate(r.structuredContent), `${what}: conforms to the outputSchema ${ajv.errorsText(validate.errors)}`);
    if (fails) t.match(r.structuredContent, { error: { reason: /^[a-z_]+$/, message: /\w/ } }, `${what}: says why`);
    else t.notOk((r.structuredContent as Record<string, unknown>)['error'], `${what}: a result, not an error`);
  }
}

t.test('tools answer structured content that conforms to their output schemas, over HTTP and stdio', async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());

  const http = await mcpClient(s.d.url, s.d.token, 'schema-http');
  t.teardown(() => http.close());
  await exercise(t, http, 'streamable http');

  await t.rejects(mcpClient(s.d.url, 'wrong-token'), 'a wrong token is refused');

  const stdio = await stdioClient(t, s, 'schema-stdio', 'ignore');
  await exercise(t, stdio, 'stdio');
});
