// vault_read: one note's text from disk (not the index, so an agent reads its own writes at once), with its mtime
// for a later conflict-checked write, its frontmatter, and whether search has caught up with it.
import { readFile, stat } from 'node:fs/promises';
import { SOURCE_VAULT } from '../../../messages/common.js';
import { isSensitive, readFrontmatter } from '../../chunker/frontmatter.js';
import type { ToolDeps } from './deps.js';
import { checkReadPath, resolveInsideVault } from './read-path.js';
import { sensitiveRemedy, toolFail, type CallContext, type ToolOutcome } from './types.js';
import { sha256Hex } from '../../../messages/hash.js';

export interface ReadResult {
  path: string;
  content: string;
  mtime_ms: number;
  size: number;
  content_hash: string; // sha256 hex of the file's bytes, as the index and the writer compute it
  sensitive: boolean;
  frontmatter: Record<string, unknown>;
  frontmatter_error: string | null;
  indexed: boolean; // the index holds exactly this content
}

export async function vaultRead(d: ToolDeps, args: { path: string }, ctx?: CallContext): Promise<ToolOutcome<ReadResult>> {
  const checked = checkReadPath(args.path);
  if (!checked.ok) return checked;
  const rel = checked.result.rel;
  const at = await resolveInsideVault(d.vault, rel);
  if (!at.ok) return at.error.reason === 'not_found' ? toolFail('not_found', `no note at ${rel}; vault_list shows what exists`) : at;
  const s = await stat(at.result.abs);
  if (!s.isFile()) return toolFail('not_found', `${rel} is not a file`);
  if (s.size > d.maxReadBytes)
    return toolFail(
      'too_large',
      `${rel} is ${s.size} bytes, over the read limit of ${d.maxReadBytes} (chunker.max_file_bytes); use memory_search to find the part you need`,
    );
  const bytes = await readFile(at.result.abs);
  if (bytes.includes(0)) return toolFail('invalid_content', `${rel} holds a NUL byte, so it is not a text note`);
  let content: string;
  try {
    content = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return toolFail('invalid_content', `${rel} is not valid UTF-8 text`);
  }
  const fm = readFrontmatter(content.replace(/\r\n?/g, '\n').split('\n'));
  const sensitive = isSensitive(fm);
  if (sensitive && !d.mayReadSensitive)
    return toolFail(
      'sensitive',
      `${rel} is marked sensitive (frontmatter \`sensitive: true\` or \`memvault: local-only\`), so this caller may not read it; ${sensitiveRemedy(ctx?.principal)}`,
    );
  const hash = sha256Hex(bytes);
  return {
    ok: true,
    result: {
      path: rel,
      content,
      mtime_ms: s.mtimeMs,
      size: s.size,
      content_hash: hash,
      sensitive,
      frontmatter: fm.data,
      frontmatter_error: fm.error ?? null,
      indexed: d.view.reader.document(SOURCE_VAULT, rel)?.contentHash === hash,
    },
  };
}
