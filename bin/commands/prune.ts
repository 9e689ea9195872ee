// `memvault prune`: the retention sweep now — expired chat, task and correction rows go with their chunks, FTS and
// vector rows, and journal days older than the longest retention are dropped. Through the running daemon when there
// is one, else directly on the index file (nothing else writes it then).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CHUNKER_VERSION } from '../../actors/chunker/version.js';
import { Journal, dayOf } from '../../actors/memory/journal.js';
import { retentionCutoffs } from '../../actors/memory/retention.js';
import { pruneEpisodes } from '../../actors/store-writer/episodes.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import type { Config } from '../../config/load.js';
import type { PruneResult } from '../../messages/to-memory.js';
import { indexFile } from '../../supervisors/runtime/boot.js';
import { CommandFailure, configFor, EXIT, requireVault, type Args } from '../args.js';
import { callDaemon, findDaemon } from '../client.js';
import { openingIndex } from '../index-damaged.js';

type Pruned = Omit<Extract<PruneResult, { ok: true }>, 'ok'>;

/** The sweep on the files, for when no daemon runs. */
export function pruneDirect(cfg: Config, now: number): Pruned {
  const { cutoffs, journalBefore } = retentionCutoffs(cfg.retention.days, now);
  const file = indexFile(cfg);
  const db = openingIndex(file, () => openIndex(file, { readonly: false }));
  let removed: Pruned['removed'];
  try {
    removed = pruneEpisodes(
      new IndexWriter(db, { userId: cfg.user_id, model: null, chunkerVersion: CHUNKER_VERSION, now: () => now }),
      cutoffs,
    ).removed;
  } finally {
    db.close();
  }
  const journal = Journal.open(path.join(cfg.data_dir, 'episodes'), { wallNow: () => now, readOnly: false });
  const dropped = journalBefore !== null ? journal.dropBefore(dayOf(journalBefore)) : 0;
  return {
    removed,
    journal_files_dropped: dropped,
    cutoffs: Object.fromEntries(
      (['chat', 'task', 'correction'] as const).map((t) => [t, cutoffs[t] !== undefined ? new Date(cutoffs[t]).toISOString() : null]),
    ),
  };
}

export async function pruneCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const daemon = await findDaemon(cfg);
  if (!daemon) {
    requireVault(cfg);
    if (!existsSync(indexFile(cfg)))
      throw new CommandFailure(
        `${cfg.vault} has no index yet, so nothing to prune: run \`memvault index --vault ${cfg.vault}\` or start the daemon`,
      );
  }
  const r = daemon ? await callDaemon<Pruned>(daemon, 'POST', '/v1/prune', {}) : pruneDirect(cfg, Date.now());
  if (a.json) {
    process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    return EXIT.ok;
  }
  const lines = (['chat', 'task', 'correction'] as const).map(
    (t) =>
      `${t.padEnd(11)} ${String(r.removed[t] ?? 0).padStart(7)} removed  ${r.cutoffs[t] ? `(older than ${r.cutoffs[t]})` : '(kept for good)'}`,
  );
  lines.push(`journal     ${String(r.journal_files_dropped).padStart(7)} day file(s) dropped`);
  lines.push('fact, vault       kept: durable sources are never pruned by age');
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
