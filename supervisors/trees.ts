// The daemon's supervision trees, built from the actor table (actors.ts): the root one_for_one, its children in
// rootOrder() (the gateway first: after a restart it answers from the index at once, its state saying what is still
// pending; then the ingest pipeline rest_for_one — a store-writer restart restarts everything downstream of it —
// which catches up with the vault; the git writer after it, agents' writes waiting in its mailbox meanwhile; the
// scheduler last: nothing waits for it, and what it drafts reads the index the pipeline fills).
import type { Config } from '../config/load.js';
import type { ActorHandle } from './runtime/host.js';
import { ACTOR_NAMES, ACTORS, rootOrder, type RoutedActor } from './actors.js';
import type { ChildSpec, SupervisorSpec } from './spec.js';
import { nestedSupervisor } from './supervisor.js';

/** Only the actors that run in this mode have a handle. */
export type ActorHandles = Partial<Record<RoutedActor, ActorHandle<unknown>>>;

export function rootTree(cfg: Config, handles: ActorHandles): SupervisorSpec {
  const s = cfg.supervisor;
  const backoff = { minMs: s.backoff_min_ms, maxMs: s.backoff_max_ms, jitter: 0.2 };
  const actor = (name: RoutedActor): ChildSpec[] => {
    const h = handles[name];
    return h ? [h.childSpec({ shutdownMs: ACTORS[name].shutdownMs, backoff })] : [];
  };
  const ingest: SupervisorSpec = {
    id: 'ingest',
    strategy: 'rest_for_one',
    intensity: s.intensity,
    periodMs: s.period_ms,
    children: ACTOR_NAMES.filter((name) => ACTORS[name].tree === 'ingest').flatMap(actor),
  };
  return {
    id: 'root',
    strategy: 'one_for_one',
    intensity: s.intensity,
    periodMs: s.period_ms,
    children: rootOrder().flatMap((child) =>
      child === 'ingest'
        ? [{ id: 'ingest', start: nestedSupervisor(ingest), nested: ingest, restart: 'permanent' as const, shutdownMs: 30_000, backoff }]
        : actor(child),
    ),
  };
}
