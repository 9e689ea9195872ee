// `memvault undo --run` / POST /v1/dream/undo answers once search sees the reverted notes, as vault_undo_last does
// with wait_indexed: a caller that searches right after the answer never sees the undone pages or misses the facts
// they had covered. Fact-log files are the memory actor's (indexed fact by fact), so they are not waited on here.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../../messages/hash.js';
import type { UndoRunResult } from '../../messages/dream.js';

export type WaitIndexed = (rel: string, hash: string | null, ms: number) => Promise<boolean>;

async function diskHash(vault: string, rel: string): Promise<string | null> {
  try {
    return sha256Hex(await readFile(path.join(vault, ...rel.split('/'))));
  } catch {
    return null; // gone: the index must drop it
  }
}

export async function undoRunIndexed(
  undo: () => Promise<UndoRunResult>,
  o: { vault: string; isMemoryFile: (rel: string) => boolean; wait: WaitIndexed; ms: number },
): Promise<UndoRunResult> {
  const u = await undo();
  if (!u.ok) return u;
  const notes = u.paths.filter((p) => !o.isMemoryFile(p));
  await Promise.all(notes.map(async (p) => o.wait(p, await diskHash(o.vault, p), o.ms)));
  return u;
}
