// The markdown notes under a vault folder, depth first in name order, dot-entries skipped (the dream's zones and
// its vault_list tool).
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export async function markdownUnder(vault: string, folder: string, limit = Number.POSITIVE_INFINITY): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(vault, ...rel.split('/')), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= limit || e.name.startsWith('.')) continue;
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(r);
      else if (e.isFile() && e.name.endsWith('.md')) out.push(r);
    }
  };
  await walk(folder);
  return out;
}
