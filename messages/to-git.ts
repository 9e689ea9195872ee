// Messages the git writer receives: agent mutations and undos (requests: the handler answers with ctx.reply and a
// MutationResult), and work-tree changes seen on disk (committed as a person's edit after a quiet period).
import type { Caller, FactInput, UndoRequest, VaultOp } from './vault-ops.js';

export type GitMsg =
  | { type: 'git.mutate'; op: VaultOp; caller: Caller & { mayReadSensitive: boolean } }
  | { type: 'git.undo'; req: UndoRequest & { reason?: string } }
  | { type: 'git.worktree_changed'; paths: string[] }
  /** Edits may have gone unreported (the vault watched afresh, a reconcile asked for): git status names them. */
  | { type: 'git.worktree_rescan'; reason: string }
  /** Request (memory_remember): append one fact line to today's log in the memory folder and commit it; a RememberResult. */
  | { type: 'git.remember'; fact: FactInput; caller: Caller }
  /** Request (memory_forget): append tombstone lines (JSON) to the memory folder's tombstones.jsonl and commit; a MutationResult. */
  | { type: 'git.forget'; lines: string[]; caller: Caller }
  /** Request (the dream): append one journal line to the memory folder's log.md (the watermark) and commit; a MutationResult. */
  | { type: 'git.dream_journal'; line: string; caller: Caller }
  /** Request (memvault undo --run): revert every commit of one dream run, newest first; an UndoRunResult. */
  | { type: 'git.undo_run'; run: string; by: string }
  /** Request (the dream): MEMORY.md at the vault root rewritten whole and committed; a MutationResult. */
  | { type: 'git.dream_memory_md'; content: string; caller: Caller }
  /** Request (the curation run): USER.md rewritten (unless null; refused as a conflict when it no longer has `expectedHash`) and one line appended to USER.md.audit.jsonl (unless null), in one commit; a MutationResult. */
  | { type: 'git.curation'; userMd: string | null; expectedHash?: string; auditLine: string | null; caller: Caller }
  /** Request (WebDAV): a person's file change already on disk (written atomically by the gateway), committed now as `author`; a PersonCommitResult. With `before`, sent ahead of the gateway's write: only a person's
   * pending edit of those paths is committed (as the person, so the WebDAV write cannot bury it). */
  | { type: 'git.commit_person'; paths: string[]; author: { name: string; email: string }; before?: true };

export type PersonCommitResult =
  | { ok: true; commit: string | null; paths: string[] }
  | { ok: false; reason: 'unavailable'; message: string };
