// `memvault index`: one reconcile-and-index pass with the same actors as the daemon; a progress bar on a TTY.
import cliProgress from 'cli-progress';
import { makeLogger, ONE_SHOT_STDERR } from '../../supervisors/runtime/log.js';
import { Daemon } from '../../main/daemon.js';
import { configFor, EXIT, requireVault, type Args } from '../args.js';
import { findDaemon } from '../client.js';

export async function indexOnce(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: true });
  const running = await findDaemon(cfg);
  if (running) {
    process.stderr.write(`memvault: a daemon already indexes ${cfg.vault} (${running.url}); it keeps the index current\n`);
    return EXIT.ok;
  }
  requireVault(cfg);
  const tty = process.stderr.isTTY === true;
  // every thread's stderr holds warnings (a line per note went there); the log file keeps the configured level
  const stderrLevel = ONE_SHOT_STDERR;
  const log = makeLogger('main', { level: cfg.log.level, stderrLevel, dataDir: cfg.data_dir });
  const daemon = new Daemon(cfg, { mode: 'oneshot', log, stderrLevel });
  const started = Date.now();
  await daemon.start();
  const b = daemon.board;
  let bar: cliProgress.SingleBar | null = null;
  let timer: NodeJS.Timeout | null = null;
  if (tty) {
    bar = new cliProgress.SingleBar(
      { format: 'indexing |{bar}| {value}/{total} files | {chunks} chunks | {rate} files/s | ETA {eta_formatted}', hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(1, 0, { chunks: 0, rate: '0' });
    timer = setInterval(() => {
      const done = b.get('filesDone');
      const total = Math.max(done + b.get('pending'), 1);
      const secs = (Date.now() - started) / 1000;
      bar!.setTotal(total);
      bar!.update(done, { chunks: b.get('chunksIndexed'), rate: (done / Math.max(secs, 0.001)).toFixed(1) });
    }, 200);
  }
  await daemon.whenCaughtUp();
  if (timer) clearInterval(timer);
  if (bar) {
    bar.update(b.get('filesDone'), { chunks: b.get('chunksIndexed') });
    bar.stop();
  }
  await daemon.stop('index complete', 0);
  const secs = (Date.now() - started) / 1000;
  // the command's result: on stdout, as reindex's, without the `memvault:` prefix its errors carry on stderr
  process.stdout.write(
    `indexed ${cfg.vault}: ${b.get('filesDone')} files processed, ${b.get('chunksIndexed')} chunks written, ${b.get('embedCalls')} model calls, ${secs.toFixed(1)} s\n`,
  );
  return EXIT.ok;
}
