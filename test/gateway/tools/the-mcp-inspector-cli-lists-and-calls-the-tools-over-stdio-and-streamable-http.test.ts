// The official MCP Inspector in CLI mode (`mcp-inspector --cli`, offline) against a real daemon: over Streamable HTTP
// with the token header it lists the tools with their output schemas and gets structured results; over stdio
// (`memvault mcp`) an error comes back as an isError result with the reason; a wrong token is refused.
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeDaemonInfo } from '../../../bin/client.js';
import { REPO } from '../../helpers/daemon.js';
import { startToolDaemon } from './helpers/tool-daemon.js';

const INSPECTOR = path.join(REPO, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

/** Runs the inspector CLI without blocking: the daemon's main thread lives in this process and routes the searches. */
function inspect(args: string[], home: string): Promise<{ status: number | null; out: string; json: any }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, '--cli', ...args],
      {
        encoding: 'utf8',
        timeout: 120_000,
        // what a person's shell passes (not the test runner's NODE_OPTIONS); its catalog in a temp dir, not in home
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, MCP_CATALOG_PATH: path.join(home, 'mcp.json') },
      },
      (err, stdout, stderr) => {
        let json: any = null;
        try {
          // the JSON answer, then (for an isError result) a one-line JSON error summary
          const cut = stdout.lastIndexOf('}\n{');
          json = JSON.parse(cut >= 0 ? stdout.slice(0, cut + 1) : stdout);
        } catch {}
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}`, json });
      },
    );
  });
}

t.test('the inspector CLI over Streamable HTTP and stdio', async (t) => {
  const s = await startToolDaemon({ 'People/Beta.md': '# Beta\n\nBeta runs the billing team.\n' });
  t.teardown(() => s.stop());
  const home = mkdtempSync(path.join(tmpdir(), 'memvault-inspector-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const http = ['--transport', 'http', '--header', `Authorization: Bearer ${s.d.token}`];

  const list = await inspect([`${s.d.url}/mcp`, ...http, '--method', 'tools/list'], home);
  t.equal(list.status, 0, list.out.slice(0, 500));
  const tools = list.json?.tools as Array<{ name: string; outputSchema?: { type: string } }>;
  t.equal(tools?.length, 14, 'fourteen tools');
  t.ok(
    tools?.every((x) => x.outputSchema?.type === 'object'),
    'each with an outputSchema',
  );

  const found = await inspect(
    [`${s.d.url}/mcp`, ...http, '--method', 'tools/call', '--tool-name', 'memory_search', '--tool-arg', 'query=billing team'],
    home,
  );
  t.equal(found.status, 0, found.out.slice(0, 500));
  t.equal(found.json?.structuredContent?.results?.[0]?.path, 'People/Beta.md', 'structured results');
  t.same(JSON.parse(found.json?.content?.[0]?.text ?? 'null'), found.json?.structuredContent, 'the same JSON as text');

  const denied = await inspect(
    [`${s.d.url}/mcp`, '--transport', 'http', '--header', 'Authorization: Bearer wrong', '--method', 'tools/list'],
    home,
  );
  t.notOk(denied.json?.tools, 'a wrong token lists nothing');
  t.match(denied.out, /error/i);

  writeDaemonInfo(s.cfg, { pid: process.pid, url: s.d.url, started_at: new Date().toISOString() });
  const miss = await inspect(
    [
      '--method',
      'tools/call',
      '--tool-name',
      'vault_read',
      '--tool-arg',
      'path=People/Nobody.md',
      '--',
      process.execPath,
      path.join(REPO, 'bin/memvault'),
      'mcp',
      '--config',
      s.cfg.config_file!,
      '--vault',
      s.v.dir,
    ],
    home,
  );
  t.match(miss.json, { isError: true, structuredContent: { error: { reason: 'not_found' } } }, miss.out);
});
