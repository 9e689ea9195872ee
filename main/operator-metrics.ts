// Gauges an operator alerts on, read from the status board at scrape time: ingest lag and backlog per source, whether
// the embedder and the git writer work, and the free space under the vault and the data dir (disk-full alerts).
import { statfsSync } from 'node:fs';
import { Gauge, type Registry } from 'prom-client';
import { monotonicMs } from '../supervisors/clock.js';
import { EMBEDDER_STATES, GIT_STATES, stateName, type Board } from '../supervisors/runtime/board.js';

export interface OperatorPaths {
  vault: string;
  dataDir: string;
}

export function operatorMetrics(registry: Registry, board: Board, paths: OperatorPaths): void {
  const registers = [registry];
  const age = (t: number) => (t > 0 ? Math.max(0, (monotonicMs() - t) / 1000) : 0);
  new Gauge<'source'>({
    name: 'memvault_ingest_lag_seconds',
    help: 'Age of the oldest work not yet searchable, by source (vault: files; episodes: episodes and facts); 0 when caught up',
    labelNames: ['source'],
    registers,
    collect() {
      this.set({ source: 'vault' }, age(board.get('oldestPendingAt')));
      this.set({ source: 'episodes' }, age(board.get('memoryOldestPendingAt')));
    },
  });
  new Gauge<'source'>({
    name: 'memvault_ingest_pending',
    help: 'Work not yet searchable, by source (vault: files; episodes: episode and fact documents)',
    labelNames: ['source'],
    registers,
    collect() {
      this.set({ source: 'vault' }, board.get('pending'));
      this.set({ source: 'episodes' }, board.get('memoryPending'));
    },
  });
  const stateGauge = (name: string, help: string, states: readonly string[], key: 'embedderState' | 'gitState') =>
    new Gauge<'state'>({
      name,
      help,
      labelNames: ['state'],
      registers,
      collect() {
        const now = stateName(states, board.get(key), 'starting');
        for (const s of states) this.set({ state: s }, s === now ? 1 : 0);
      },
    });
  stateGauge(
    'memvault_embedder_state',
    'The embedder state: 1 for the current one (ready; starting; unavailable = searches answer keyword-only)',
    EMBEDDER_STATES,
    'embedderState',
  );
  stateGauge(
    'memvault_git_writer_state',
    'The git writer state: 1 for the current one (ready, starting, or why writes are off)',
    GIT_STATES,
    'gitState',
  );
  const disk = (stat: 'free' | 'size') =>
    function (this: Gauge<'path'>) {
      for (const [name, dir] of Object.entries(paths)) {
        try {
          const s = statfsSync(dir);
          this.set({ path: name === 'dataDir' ? 'data_dir' : name }, (stat === 'free' ? s.bavail : s.blocks) * s.bsize);
        } catch {} // a missing vault (unmounted) shows as an absent series: the vault-missing state says why
      }
    };
  new Gauge<'path'>({
    name: 'memvault_disk_free_bytes',
    help: 'Bytes free to memvault on the filesystem holding the vault or the data dir',
    labelNames: ['path'],
    registers,
    collect: disk('free'),
  });
  new Gauge<'path'>({
    name: 'memvault_disk_size_bytes',
    help: 'Size of the filesystem holding the vault or the data dir',
    labelNames: ['path'],
    registers,
    collect: disk('size'),
  });
}
