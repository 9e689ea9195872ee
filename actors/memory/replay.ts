// Replaying the journal into the index: from the checkpoint the index records (the whole journal when it has none),
// forgets first (an episode forgotten later is never embedded on the way), in steps that let the projector keep up.
import type { JournalCheckpoint, JournalRecord } from '../../messages/episodes.js';
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

/** What one read of the journal from a checkpoint gathered: forgotten ids with the seq of their newest forget. */
export interface Scanned {
  from: JournalCheckpoint | null;
  /** Every record from `from` up to but excluding this seq was read. */
  until: number;
  skip: Map<string, number>;
}

function noteForget(skip: Map<string, number>, r: JournalRecord): void {
  if (r.k === 'forget') skip.set(r.id, Math.max(skip.get(r.id) ?? 0, r.seq));
}

/**
 * Reads the journal from `from` up to `until` once, telling `seen` of each record: the start's read, which fills the
 * ownership ledger before appends are taken and spares the first replay a read. A file at a time, the thread
 * answering between.
 */
export async function scanJournal(
  journal: Journal,
  from: JournalCheckpoint | null,
  until: number,
  seen: (r: JournalRecord) => void,
): Promise<Scanned> {
  const skip = new Map<string, number>();
  for (const recs of journal.read(from, until)) {
    for (const r of recs) {
      seen(r);
      noteForget(skip, r);
    }
    await new Promise((r) => setImmediate(r));
  }
  return { from, until, skip };
}

/**
 * Applies the journal from the index's checkpoint to the core, then `held` (records made durable meanwhile, in
 * order). The caller has put the core in replay mode's sibling state: appends are held until this resolves.
 * Null when `current` turned false at a step (a rescan reset the core and began a replay of its own): nothing more
 * is applied, and `held` is left to that replay.
 */
export async function replayJournal(d: {
  journal: Journal;
  core: MemoryCore;
  projector: Projector;
  reader: IndexReader;
  held: JournalRecord[];
  /** Told of each record read (who recorded each episode: the ownership ledger). */
  seen: (r: JournalRecord) => void;
  /** The start's read (scanJournal), used when the index's checkpoint is still the one it read from. */
  scanned?: Scanned;
  /** Whether this is still the replay under way: checked after every wait, the steps between run without one. */
  current: () => boolean;
}): Promise<Replayed | null> {
  const from = readCheckpoint(d.reader);
  // nothing half-written while the files are read: every record below `until` is in them, every later one is held
  await d.journal.settled();
  if (!d.current()) return null;
  const until = d.journal.nextSeq;
  d.core.beginReplay();
  d.core.startAt(from?.seq ?? 0, 0);
  const pre = d.scanned?.from?.seq === from?.seq && d.scanned?.from?.file === from?.file ? d.scanned : undefined;
  // every record from the start's read on was made durable since: the ledger has it (`seen` would tell it again) and
  // so has `held`, applied after the files (its forgets below `until` skip earlier records as if read from the files)
  const skip = pre?.skip ?? new Map<string, number>();
  const readUntil = pre?.until ?? until;
  if (pre) {
    for (const r of d.held) if (r.seq < until) noteForget(skip, r);
  } else {
    for (const recs of d.journal.read(from, until))
      for (const r of recs) {
        d.seen(r);
        noteForget(skip, r);
      }
  }
  let n = 0;
  for (const recs of d.journal.read(from, readUntil)) {
    for (let i = 0; i < recs.length; i += STEP) {
      d.core.apply(recs.slice(i, i + STEP), skip);
      n += Math.min(STEP, recs.length - i);
      await d.projector.below(QUEUED);
      if (!d.current()) return null;
    }
  }
  n += d.held.filter((r) => r.seq >= readUntil && r.seq < until).length;
  d.core.apply(d.held.splice(0), skip);
  return { from: from?.seq ?? 0, records: n, stretches: d.core.endReplay() };
}
