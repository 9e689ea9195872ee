// The supervision tree as main answers it (`main.supervision`) and /v1/status shows it: each supervisor's strategy and
// restart intensity, each actor's state, restarts and mailbox depth, nested as the trees in supervisors/trees.ts run.
import type { Failure } from './common.js';

export type SupervisedState = 'running' | 'restarting' | 'stopped';

export interface SupervisorNode {
  kind: 'supervisor';
  id: string;
  strategy: 'one_for_one' | 'rest_for_one' | 'one_for_all';
  /** More than `intensity` restarts within `period_ms` and this supervisor gives up and escalates to its parent. */
  intensity: number;
  period_ms: number;
  /** Its own state and restarts under its parent (the root has no parent: running, 0). */
  state: SupervisedState;
  restarts: number;
  /** In start order (while this supervisor is restarting: from its spec, each child in its state). */
  children: SupervisionNode[];
}

export interface ActorNode {
  kind: 'actor';
  id: string;
  state: SupervisedState;
  /** Restarts by its supervisor since that supervisor started. */
  restarts: number;
  /** Messages queued or in flight (memvault_mailbox_depth). */
  mailbox: number;
}

export type SupervisionNode = SupervisorNode | ActorNode;

/** The daemon is still starting its root supervisor: there is no running tree to describe yet. */
export type SupervisionUnavailable = Failure<'starting'>;
