// `memvault forget FACT_ID | --query TEXT [--confirm] | --episode ID [--reason WHY]`: memory_forget from the command
// line. Facts are forgotten through the git writer (a committed tombstone), so without a running daemon one is
// started in this process for the call and stopped after it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Daemon } from '../../main/daemon.js';
import { makeLogger } from '../../supervisors/runtime/log.js';
import { configFor, EXIT, UsageError, type Args } from '../args.js';
import { findDaemon } from '../client.js';

export async function forgetCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const factId = a.rest[0];
  const given = [factId, a.query, a.episode].filter((x) => x !== undefined);
  if (given.length !== 1) throw new UsageError('forget needs one of FACT_ID, --query TEXT or --episode ID');
  const args = {
    ...(factId !== undefined ? { fact_id: factId } : {}),
    ...(a.query !== undefined ? { query: a.query, confirm: a.confirm } : {}),
    ...(a.episode !== undefined ? { episode_id: a.episode } : {}),
    ...(a.reason !== undefined ? { reason: a.reason } : {}),
  };
  let daemon: Daemon | null = null;
  let up = await findDaemon(cfg.data_dir);
  if (!up) {
    const log = makeLogger('main', { level: 'warn', dataDir: cfg.data_dir, toStderr: true });
    daemon = new Daemon({ ...cfg, listen: '127.0.0.1:0' }, { mode: 'serve', log, logToStderr: true });
    await daemon.start();
    await daemon.whenCaughtUp();
    up = {
      url: `http://127.0.0.1:${daemon.board.get('gatewayPort')}`,
      token: readFileSync(path.join(cfg.data_dir, 'token'), 'utf8').trim(),
    };
  }
  try {
    const r = await fetch(`${up.url}/v1/tools/memory_forget`, {
      method: 'POST',
      headers: { authorization: `Bearer ${up.token}`, 'content-type': 'application/json', 'x-memvault-agent': a.agent ?? 'cli' },
      body: JSON.stringify(args),
    });
    const body = (await r.json()) as Record<string, unknown> & { error?: { reason: string; message: string } };
    if (a.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    else if (!r.ok) process.stderr.write(`memvault: ${body.error?.reason}: ${body.error?.message}\n`);
    else if (body['candidates'])
      process.stdout.write(
        `nothing forgotten yet; the best matches (forget the first with --confirm, or one by its id):\n${(
          body['candidates'] as Array<{ fact_id: string; text: string }>
        )
          .map((c) => `  ${c.fact_id}  ${c.text}`)
          .join('\n')}\n`,
      );
    else
      process.stdout.write(
        `${(body['forgotten'] as Array<{ fact_id?: string; episode_id?: string; text?: string }>)
          .map((f) => `forgot ${f.fact_id ?? f.episode_id}${f.text ? `  "${f.text}"` : ''}`)
          .join('\n')}${body['commit'] ? `\ncommit ${body['commit']} (vault_undo_last takes it back)` : ''}\n`,
      );
    return r.ok ? EXIT.ok : EXIT.failure;
  } finally {
    await daemon?.stop('forget done', 0);
  }
}
