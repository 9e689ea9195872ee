// Messages the git writer receives: agent mutations and undos (requests answered via the gateway), and work-tree
// changes seen on disk (committed as a person's edit after a quiet period).
import type { Caller, UndoRequest, VaultOp } from './vault-ops.js';

export type GitMsg =
  | { type: 'git.mutate'; requestId: number; op: VaultOp; caller: Caller & { mayReadSensitive: boolean } }
  | { type: 'git.undo'; requestId: number; req: UndoRequest & { reason?: string } }
  | { type: 'git.worktree_changed'; paths: string[] };
