// vault_write and vault_undo_last: hand the change to the injected write path (the git writer), then report
// whether search has caught up with it, waiting for that when the agent asks (read-your-writes).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SOURCE_VAULT } from '../../../messages/common.js';
import { sha256Hex } from '../../../messages/hash.js';
import type { MutationResult } from '../../../messages/vault-ops.js';
import type { ToolDeps } from './deps.js';
import { checkVaultPath } from './read-path.js';
import { toolFail, type CallContext, type ToolOutcome, type WriteBackend } from './types.js';

export interface WriteResult {
  op: 'write';
  path: string;
  /** The commit recording the write; null when the note already had exactly this content (nothing changed). */
  commit: string | null;
  mtime_ms: number | null;
  content_hash: string | null;
  /** Search sees this content now (after waiting, when wait_indexed was asked). */
  indexed: boolean;
}

export interface UndoResult {
  op: 'undo';
  paths: string[];
  commit: string | null;
  indexed: boolean;
}

function fromMutation(r: Exclude<MutationResult, { ok: true }>): ToolOutcome<never> {
  return toolFail(r.reason, r.message);
}

/** The content hash each path should have in the index now: the file's bytes, or null when it is gone. */
async function diskHash(vault: string, rel: string): Promise<string | null> {
  try {
    return sha256Hex(await readFile(path.join(vault, ...rel.split('/'))));
  } catch {
    return null;
  }
}

async function caughtUp(d: ToolDeps, wanted: Array<{ path: string; hash: string | null }>, wait: boolean): Promise<boolean> {
  if (wait) {
    const all = await Promise.all(wanted.map((w) => d.waitIndexed(w.path, w.hash, d.waitTimeoutMs)));
    return all.every(Boolean);
  }
  return wanted.every((w) => (d.view.reader.document(SOURCE_VAULT, w.path)?.contentHash ?? null) === w.hash);
}

export async function vaultWrite(
  d: ToolDeps,
  w: WriteBackend,
  ctx: CallContext,
  args: { path: string; content: string; expected_mtime?: number; expected_hash?: string; reason?: string; wait_indexed?: boolean },
): Promise<ToolOutcome<WriteResult>> {
  const checked = checkVaultPath(args.path, 'note', d.reserved);
  if (!checked.ok) return checked;
  const rel = checked.result.rel;
  const bytes = Buffer.byteLength(args.content, 'utf8');
  if (bytes > d.maxWriteBytes)
    return toolFail(
      'too_large',
      `content is ${bytes} bytes, over the write limit of ${d.maxWriteBytes} (writes.max_bytes); split the note`,
    );
  if (args.content.includes('\0')) return toolFail('invalid_content', 'content contains a NUL character; notes are text');
  const r = await w.mutate(
    {
      op: 'write',
      path: rel,
      content: args.content,
      ...(args.expected_mtime !== undefined ? { expectedMtime: args.expected_mtime } : {}),
      ...(args.expected_hash !== undefined ? { expectedHash: args.expected_hash } : {}),
    },
    {
      agent: ctx.agent,
      ...(args.reason !== undefined ? { reason: args.reason } : {}),
      ...(ctx.principal?.kind === 'agent' ? { mayReadSensitive: ctx.principal.sensitive } : {}),
    },
  );
  if (!r.ok) return fromMutation(r);
  const hash = r.contentHash;
  return {
    ok: true,
    result: {
      op: 'write',
      path: r.paths[0] ?? rel,
      commit: r.commit,
      mtime_ms: r.mtimeMs,
      content_hash: hash,
      indexed: await caughtUp(d, [{ path: r.paths[0] ?? rel, hash }], args.wait_indexed === true),
    },
  };
}

export async function vaultUndoLast(
  d: ToolDeps,
  w: WriteBackend,
  ctx: CallContext,
  args: { only_mine?: boolean; reason?: string; wait_indexed?: boolean },
): Promise<ToolOutcome<UndoResult>> {
  const r = await w.undoLast({
    agent: ctx.agent,
    onlyMine: args.only_mine ?? true,
    ...(args.reason !== undefined ? { reason: args.reason } : {}),
  });
  if (!r.ok) return fromMutation(r);
  // an undo can touch several notes (a move comes back, a delete is restored): each must reach its restored state
  // the fact log is indexed fact by fact, not as notes: an undone forget is the memory actor's to re-read
  const notes = r.paths.filter((p) => !d.reserved(p));
  const wanted = await Promise.all(notes.map(async (p) => ({ path: p, hash: await diskHash(d.vault, p) })));
  return {
    ok: true,
    result: { op: 'undo', paths: r.paths, commit: r.commit, indexed: await caughtUp(d, wanted, args.wait_indexed === true) },
  };
}
