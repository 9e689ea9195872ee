// The daemon's supervision trees, built from the actor table (actors.ts): the root's own children one_for_one in
// table order (the gateway first: after a restart it answers from the index at once, its state saying what is still
// pending; the git writer next, so write tools are there when agents arrive), then the ingest pipeline rest_for_one
// (a store-writer restart restarts everything downstream of it), then the root's children that can wait for it
// (the scheduler: nothing waits for it, and what it drafts reads the index the pipeline fills).
import type { Config } from '../config/load.js';
import type { ActorHandle } from './runtime/host.js';
import { ACTORS, type RoutedActor } from './actors.js';
import type { ChildSpec, SupervisorSpec } from './spec.js';
import { nestedSupervisor } from './supervisor.js';

/** Only the actors that run in this mode have a handle. */
export type ActorHandles = Partial<Record<RoutedActor, ActorHandle<unknown>>>;

export function rootTree(cfg: Config, handles: ActorHandles): SupervisorSpec {
  const s = cfg.supervisor;
  const backoff = { minMs: s.backoff_min_ms, maxMs: s.backoff_max_ms, jitter: 0.2 };
  const children = (tree: 'root' | 'ingest' | 'root-last'): ChildSpec[] =>
    (Object.keys(ACTORS) as RoutedActor[]).flatMap((name) => {
      const h = handles[name];
      return ACTORS[name].tree === tree && h ? [h.childSpec({ shutdownMs: ACTORS[name].shutdownMs, backoff })] : [];
    });
  const ingest: SupervisorSpec = {
    id: 'ingest',
    strategy: 'rest_for_one',
    intensity: s.intensity,
    periodMs: s.period_ms,
    children: children('ingest'),
  };
  return {
    id: 'root',
    strategy: 'one_for_one',
    intensity: s.intensity,
    periodMs: s.period_ms,
    children: [
      ...children('root'),
      { id: 'ingest', start: nestedSupervisor(ingest), restart: 'permanent', shutdownMs: 30_000, backoff },
      ...children('root-last'),
    ],
  };
}
