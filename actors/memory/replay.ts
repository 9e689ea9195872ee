// Replaying the journal into the index: from the checkpoint the index records (the whole journal when it has none),
// forgets first (an episode forgotten later is never embedded on the way), in steps that let the projector keep up.
import type { JournalRecord } from '../../messages/episodes.js';
import type { IndexReader } from '../store-writer/index-reader.js';
import type { MemoryCore, Stretch } from './core.js';
import { readCheckpoint } from './index-side.js';
import type { Journal } from './journal.js';
import type { Projector } from './projector.js';

const STEP = 500;
/** Work queued at most while replaying: the journal is read no faster than the model embeds. */
const QUEUED = 2_000;

export interface Replayed {
  from: number;
  records: number;
  /** Chat stretches the replay rebuilt: their turns in the index are checked once every batch is in. */
  stretches: Stretch[];
}

/**
 * Applies the journal from the index's checkpoint to the core, then `held` (records made durable meanwhile, in
 * order). The caller has put the core in replay mode's sibling state: appends are held until this resolves.
 */
export async function replayJournal(d: {
  journal: Journal;
  core: MemoryCore;
  projector: Projector;
  reader: IndexReader;
  held: JournalRecord[];
  /** Told of each record read (who recorded each episode: the ownership ledger). */
  seen: (r: JournalRecord) => void;
}): Promise<Replayed> {
  const from = readCheckpoint(d.reader);
  // nothing half-written while the files are read: every record below `until` is in them, every later one is held
  await d.journal.settled();
  const until = d.journal.nextSeq;
  d.core.beginReplay();
  d.core.startAt(from?.seq ?? 0, 0);
  const skip = new Map<string, number>();
  for (const recs of d.journal.read(from, until))
    for (const r of recs) {
      d.seen(r);
      if (r.k === 'forget') skip.set(r.id, Math.max(skip.get(r.id) ?? 0, r.seq));
    }
  let n = 0;
  for (const recs of d.journal.read(from, until)) {
    for (let i = 0; i < recs.length; i += STEP) {
      d.core.apply(recs.slice(i, i + STEP), skip);
      n += Math.min(STEP, recs.length - i);
      await d.projector.below(QUEUED);
    }
  }
  d.core.apply(d.held.splice(0));
  return { from: from?.seq ?? 0, records: n, stretches: d.core.endReplay() };
}
