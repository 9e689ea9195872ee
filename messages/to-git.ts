// Messages the git writer receives: agent mutations and undos (requests: the handler answers with ctx.reply and a
// MutationResult), and work-tree changes seen on disk (committed as a person's edit after a quiet period).
import type { Caller, UndoRequest, VaultOp } from './vault-ops.js';

export type GitMsg =
  | { type: 'git.mutate'; op: VaultOp; caller: Caller & { mayReadSensitive: boolean } }
  | { type: 'git.undo'; req: UndoRequest & { reason?: string } }
  | { type: 'git.worktree_changed'; paths: string[] };
