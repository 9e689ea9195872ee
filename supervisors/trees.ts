// The daemon's supervision trees, as data: the gateway and the git writer, then an ingest pipeline restarted
// rest_for_one (a store-writer restart restarts everything downstream of it), one_for_one under the root.
import type { Config } from '../config/load.js';
import type { ActorHandle } from '../actors/runtime/host.js';
import type { SupervisorSpec } from './spec.js';
import { nestedSupervisor } from './supervisor.js';

export type ActorHandles = {
  store: ActorHandle<unknown>;
  embedder: ActorHandle<unknown>;
  chunker: ActorHandle<unknown>;
  watcher: ActorHandle<unknown>;
  gateway?: ActorHandle<unknown>;
  git?: ActorHandle<unknown>;
};

export function rootTree(cfg: Config, a: ActorHandles): SupervisorSpec {
  const s = cfg.supervisor;
  const backoff = { minMs: s.backoff_min_ms, maxMs: s.backoff_max_ms, jitter: 0.2 };
  const ingest: SupervisorSpec = {
    id: 'ingest',
    strategy: 'rest_for_one',
    intensity: s.intensity,
    periodMs: s.period_ms,
    children: [
      a.store.childSpec({ shutdownMs: 10_000, backoff }),
      a.embedder.childSpec({ shutdownMs: 5_000, backoff }),
      a.chunker.childSpec({ shutdownMs: 5_000, backoff }),
      a.watcher.childSpec({ shutdownMs: 5_000, backoff }),
    ],
  };
  return {
    id: 'root',
    strategy: 'one_for_one',
    intensity: s.intensity,
    periodMs: s.period_ms,
    children: [
      // the gateway starts first: after a restart it answers from the index at once, its state saying what is
      // still pending; the git writer is next so write tools are there when agents arrive; ingest catches up last
      ...(a.gateway ? [a.gateway.childSpec({ shutdownMs: 5_000, backoff })] : []),
      ...(a.git ? [a.git.childSpec({ shutdownMs: 10_000, backoff })] : []),
      { id: 'ingest', start: nestedSupervisor(ingest), restart: 'permanent', shutdownMs: 30_000, backoff },
    ],
  };
}
