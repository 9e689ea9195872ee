// Main's answer to `main.supervision`: the running tree (Supervisor.describe) with each actor's mailbox depth from its
// handle, in the wire shape of messages/supervision.ts.
import { fail } from '../messages/common.js';
import type { SupervisionNode, SupervisionUnavailable, SupervisorNode } from '../messages/supervision.js';
import type { ChildInfo, Supervisor, SupervisorInfo } from '../supervisors/supervisor.js';
import type { RoutedActor } from '../supervisors/actors.js';
import type { ActorHandles } from '../supervisors/trees.js';

export function supervisionTree(root: Supervisor | null, handles: ActorHandles): SupervisorNode | SupervisionUnavailable {
  if (!root) return fail('starting', 'the daemon is still starting its supervision tree; ask again in a moment');
  return node(root.describe(), { id: root.id, state: 'running', restarts: 0 }, handles);
}

function node(sup: SupervisorInfo, self: ChildInfo, handles: ActorHandles): SupervisorNode {
  return {
    kind: 'supervisor',
    id: sup.id,
    strategy: sup.strategy,
    intensity: sup.intensity,
    period_ms: sup.periodMs,
    state: self.state,
    restarts: self.restarts,
    children: sup.children.map((c): SupervisionNode => {
      if (c.supervisor) return node(c.supervisor, c, handles);
      return { kind: 'actor', id: c.id, state: c.state, restarts: c.restarts, mailbox: handles[c.id as RoutedActor]?.depth() ?? 0 };
    }),
  };
}
