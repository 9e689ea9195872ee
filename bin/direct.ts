// Direct mode for search and status when no daemon runs: read the index file, embed the query in-process,
// and work out what is pending by comparing the vault on disk with the index (stat only).
import { existsSync } from 'node:fs';
import type { Config } from '../config/load.js';
import { indexFile } from '../supervisors/runtime/boot.js';
import { configuredLimits, type IndexState, IndexView } from '../actors/gateway/index-view.js';
import { createProvider, providerSettings } from '../actors/embedder/factory.js';
import { makeIgnore, scanVault } from '../actors/watcher/scan.js';
import { SOURCE_VAULT } from '../messages/common.js';
import { openingIndex } from './index-damaged.js';

export type FileState = {
  path: string;
  state: 'indexed' | 'pending' | 'skipped' | 'failed';
  reason: string | null;
  message: string | null;
};

export function openDirect(cfg: Config): IndexView | null {
  const file = indexFile(cfg);
  if (!existsSync(file)) return null;
  const view = openingIndex(file, () => new IndexView(file, null, configuredLimits(cfg)));
  view.provider = { state: 'not_running' }; // nothing loads a model until a search asks for one (loadQueryModel)
  return view;
}

export async function loadQueryModel(view: IndexView, cfg: Config): Promise<void> {
  try {
    view.provider = { state: 'ready', provider: await createProvider(providerSettings(cfg), 1) };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    view.provider = { state: 'unavailable', reason: `${e.code ?? 'provider_failed'}: ${e.message}` };
  }
}

/** Every note on disk and every indexed one, with its state and the reason when it is not indexed. */
export async function fileStates(cfg: Config, view: IndexView | null): Promise<FileState[]> {
  const { files, problems } = scanVault(cfg.vault, makeIgnore(cfg.watcher.ignore));
  const indexed = view ? view.reader.documentStats(SOURCE_VAULT) : new Map<string, { mtimeMs: number; size: number }>();
  const statuses = new Map((view ? view.reader.fileStatuses() : []).map((s) => [s.path, s]));
  const out: FileState[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    seen.add(f.path);
    const st = statuses.get(f.path);
    const ix = indexed.get(f.path);
    if (st?.state === 'failed' || st?.state === 'skipped')
      out.push({ path: f.path, state: st.state, reason: st.reason ?? null, message: st.message ?? null });
    else if (ix && ix.mtimeMs === f.mtimeMs && ix.size === f.size)
      out.push({ path: f.path, state: 'indexed', reason: st?.reason ?? null, message: st?.message ?? null });
    else out.push({ path: f.path, state: 'pending', reason: ix ? 'changed_on_disk' : 'not_indexed_yet', message: null });
  }
  for (const p of problems) {
    seen.add(p.path);
    out.push({ path: p.path, state: 'failed', reason: p.reason, message: p.message });
  }
  for (const p of indexed.keys()) if (!seen.has(p)) out.push({ path: p, state: 'pending', reason: 'deleted_on_disk', message: null });
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** With no daemon nothing is indexing: what is pending is what differs on disk (fileStates), which the index cannot know. */
export function withDiskPending(index: IndexState, files: readonly FileState[]): IndexState {
  return { ...index, pending: files.filter((f) => f.state === 'pending').length, files_total: files.length };
}
