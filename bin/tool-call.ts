// One gateway tool called from the command line (facts, forget): over the running daemon's HTTP API, or through a
// daemon started in this process for the call (caught up first) and stopped after it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Daemon } from '../main/daemon.js';
import { startOverDamage } from '../main/start-over-damage.js';
import { makeLogger } from '../supervisors/runtime/log.js';
import type { Config } from '../config/load.js';
import { EXIT, requireVault, type Args } from './args.js';
import { findDaemon } from './client.js';

export type ToolBody = Record<string, unknown> & { error?: { reason: string; message: string } };

/** Calls `tool` with `args`; prints the answer as JSON (--json), the error, or what `render` makes of a success. */
export async function callToolCommand(
  cfg: Config,
  a: Args,
  tool: string,
  args: unknown,
  render: (body: ToolBody) => string,
  done: string,
): Promise<number> {
  let daemon: Daemon | null = null;
  let up = await findDaemon(cfg);
  if (!up) {
    requireVault(cfg);
    const log = makeLogger('main', { level: 'warn', dataDir: cfg.data_dir });
    daemon = await startOverDamage(cfg, log, () => new Daemon({ ...cfg, listen: '127.0.0.1:0' }, { mode: 'serve', log }));
    await daemon.whenCaughtUp();
    up = {
      url: `http://127.0.0.1:${daemon.board.get('gatewayPort')}`,
      token: readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim(),
    };
  }
  try {
    const r = await fetch(`${up.url}/v1/tools/${tool}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${up.token}`, 'content-type': 'application/json', 'x-memvault-agent': a.agent ?? 'cli' },
      body: JSON.stringify(args),
    });
    const body = (await r.json()) as ToolBody;
    if (a.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    else if (!r.ok) process.stderr.write(`memvault: ${body.error?.reason}: ${body.error?.message}\n`);
    else process.stdout.write(render(body));
    return r.ok ? EXIT.ok : EXIT.failure;
  } finally {
    await daemon?.stop(done, 0);
  }
}
