// `memvault reindex`: rebuilds the index with the configured model into a new file and swaps it in atomically;
// a running daemon keeps serving the old index until the new one is complete.
import { makeLogger, ONE_SHOT_STDERR } from '../../supervisors/runtime/log.js';
import { indexOnce } from '../../main/daemon.js';
import { rebuildIndex, ReindexRunning } from '../../main/reindex.js';
import { CommandFailure, configFor, EXIT, requireVault, type Args } from '../args.js';
import { callDaemon, findDaemon } from '../client.js';

export async function reindexCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const daemon = await findDaemon(cfg);
  if (daemon) {
    // no time limit: the daemon answers once the new index is swapped in, minutes for a large vault (a 30 s limit
    // ended the command with a TimeoutError while the build went on, and a retry started a second build)
    const r = await callDaemon<{ ok: boolean; documents: number; ms: number }>(daemon, 'POST', '/v1/reindex', {}, null);
    // the command's result: on stdout, without the `memvault:` prefix its errors carry on stderr
    process.stdout.write(`the daemon rebuilt the index (${r.documents} notes, ${(r.ms / 1000).toFixed(1)} s) and swapped it in\n`);
    return EXIT.ok;
  }
  requireVault(cfg);
  // every thread's stderr at the command's level (a line per note went there); the log file keeps the configured one
  const stderrLevel = ONE_SHOT_STDERR;
  const log = makeLogger('main', { level: cfg.log.level, stderrLevel, dataDir: cfg.data_dir });
  const r = await rebuildIndex(cfg, log, (file) => indexOnce(cfg, log, file, stderrLevel)).catch((err: unknown) => {
    if (err instanceof ReindexRunning) throw new CommandFailure(err.message);
    throw err;
  });
  process.stdout.write(`rebuilt the index (${r.documents} notes, ${(r.ms / 1000).toFixed(1)} s) and swapped it in\n`);
  return EXIT.ok;
}
