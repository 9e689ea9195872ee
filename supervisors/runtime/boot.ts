// What every actor thread is started with (workerData): settings, the shared status board, and the index file.
import path from 'node:path';
import { workerData, type MessagePort } from 'node:worker_threads';
import type { Config } from '../../config/load.js';
import { Board } from './board.js';
import { makeLogger, type EventLogger } from './log.js';

export interface ActorBoot {
  actor: string;
  config: Config;
  board: SharedArrayBuffer;
  dbFile: string;
  /** 'serve' keeps watching; 'oneshot' reconciles once (memvault index). */
  mode: 'serve' | 'oneshot';
  /** The embedder's and gateway's line to main's embedding pools (actors/embedder/pool-api.ts). */
  port?: MessagePort;
  /** The socket address of the daemon's spawner process, which runs git (main/spawner-host.ts). */
  spawner?: string;
  /** A one-shot command's stderr level (log.ts ONE_SHOT_STDERR); the log file keeps `config.log.level`. */
  stderrLevel?: string;
}

export function indexFile(cfg: Config): string {
  return path.join(cfg.data_dir, 'index.sqlite');
}

export function boot(): { b: ActorBoot; board: Board; log: EventLogger } {
  const b = workerData as ActorBoot;
  return {
    b,
    board: new Board(b.board),
    log: makeLogger(b.actor, {
      level: b.config.log.level,
      ...(b.stderrLevel ? { stderrLevel: b.stderrLevel } : {}),
      dataDir: b.config.data_dir,
    }),
  };
}
