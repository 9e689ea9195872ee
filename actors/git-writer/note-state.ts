// A note's state on disk (for the intent journal and the answer) and the paths an operation touches.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../../messages/hash.js';
import type { VaultOp } from '../../messages/vault-ops.js';

export async function noteState(vault: string, rel: string): Promise<{ mtimeMs: number | null; contentHash: string | null }> {
  try {
    const abs = path.join(vault, rel);
    const [s, bytes] = await Promise.all([stat(abs), readFile(abs)]);
    return { mtimeMs: s.mtimeMs, contentHash: sha256Hex(bytes) };
  } catch {
    return { mtimeMs: null, contentHash: null };
  }
}

export function opPaths(op: VaultOp): string[] {
  return op.op === 'move' ? [op.from, op.to] : [op.path];
}
