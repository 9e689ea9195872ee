// Structured JSON logging (pino) with stable event names; every thread logs through this with its actor id.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';

export type LogEvent =
  | 'daemon_started'
  | 'daemon_stopping'
  | 'daemon_stopped'
  | 'actor_started'
  | 'actor_exited'
  | 'actor_restarted'
  | 'actor_escalated'
  | 'message_poisoned'
  | 'vault_watch_event'
  | 'vault_reconciled'
  | 'memory_ingest'
  | 'memory_ingest_failed'
  | 'memory_rename'
  | 'memory_delete'
  | 'memory_retrieval'
  | 'memory_replayed'
  | 'memory_pruned'
  | 'memory_forget'
  | 'memory_remember'
  | 'embedder_ready'
  | 'embedder_unavailable'
  | 'model_download'
  | 'model_download_retry'
  | 'model_download_waiting'
  | 'model_downloaded'
  | 'model_cache_corrupt'
  | 'embed_batch'
  | 'model_mismatch'
  | 'gateway_listening'
  | 'gateway_request'
  | 'auth_failed'
  | 'index_swapped'
  | 'index_rebuilt'
  | 'fts_merged'
  | 'config_loaded'
  | 'spawner_exited';

export type EventLogger = Logger & { event(name: LogEvent, fields?: Record<string, unknown>, msg?: string): void };

/**
 * What a one-shot command (`memvault index`, `reindex`, `backfill`, `run` without a daemon) lets through to stderr,
 * from every thread, whatever `log.level` says: warnings and errors, beside the command's own progress and summary.
 * Its log file keeps the configured level.
 */
export const ONE_SHOT_STDERR = 'warn';

/**
 * A logger for one actor; writes JSON lines to stderr and to `<dataDir>/logs/memvault.log`. Never stdout: it is the
 * MCP channel of `memvault mcp`, and a command's answer (`--json`) elsewhere. `stderrLevel` (a one-shot command's,
 * ONE_SHOT_STDERR) sets stderr's level apart from the file's.
 */
export function makeLogger(actor: string, opts: { level: string; stderrLevel?: string; dataDir?: string }): EventLogger {
  const level = opts.level as pino.LevelWithSilent;
  const toStderr = (opts.stderrLevel ?? level) as pino.LevelWithSilent;
  const at = (l: pino.LevelWithSilent): pino.Level => (l === 'silent' ? 'fatal' : l);
  const streams: pino.StreamEntry[] = [{ stream: pino.destination({ dest: 2, sync: true }), level: at(toStderr) }];
  if (opts.dataDir) {
    const file = logFile(actor, path.join(opts.dataDir, 'logs'));
    if (file) streams.push({ stream: file, level: at(level) });
  }
  // the logger passes what the most talkative stream takes; each stream keeps to its own level
  const v = pino.levels.values;
  const lowest = [level, toStderr].reduce((a, b) => (b === 'silent' || (a !== 'silent' && v[a]! <= v[b]!) ? a : b));
  const base = pino({ level: lowest, base: { actor }, timestamp: pino.stdTimeFunctions.isoTime }, pino.multistream(streams)) as EventLogger;
  base.event = (name, fields = {}, msg) => base.info({ event: name, ...fields }, msg ?? name);
  return base;
}

function notice(actor: string, code: string | undefined): void {
  process.stderr.write(
    `${JSON.stringify({ level: 40, time: new Date().toISOString(), actor, event: 'log_file_write_failed', code, msg: 'cannot write the log file; logging to stderr only until it can' })}\n`,
  );
}

/**
 * `<dir>/memvault.log`, or null when it cannot be opened (a read-only data disk). A full or read-only disk must not
 * crash the thread that logs (an unhandled 'error' throws): the stream keeps a line it could not write and writes it
 * with the next one that fits; stderr still gets every line. Said once per outage.
 */
function logFile(actor: string, dir: string): pino.DestinationStream | null {
  let file: ReturnType<typeof pino.destination>;
  try {
    mkdirSync(dir, { recursive: true });
    file = pino.destination({ dest: path.join(dir, 'memvault.log'), sync: true, mkdir: true });
  } catch (err) {
    notice(actor, (err as NodeJS.ErrnoException).code);
    return null;
  }
  let failing = false;
  file.on('error', (err: NodeJS.ErrnoException) => {
    if (!failing) notice(actor, err.code);
    failing = true;
  });
  file.on('write', () => (failing = false));
  return file;
}
