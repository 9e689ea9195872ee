// The watcher actor (worker thread): turns OS events (forwarded by main, which owns the @parcel/watcher
// subscription so no event is lost while this actor restarts) into work for WatcherCore; reconciles on boot.
import { runActor } from '../../supervisors/runtime/worker.js';
import { monotonicClock } from '../../supervisors/clock.js';
import { boot } from '../../supervisors/runtime/boot.js';
import { openIndex } from '../store-writer/schema.js';
import { IndexReader } from '../store-writer/index-reader.js';
import { SOURCE_VAULT, vaultPath, type VaultPath } from '../../messages/common.js';
import type { IndexedState, WatcherMsg } from '../../messages/to-watcher.js';
import { CHUNKER_VERSION } from '../chunker/version.js';
import { ACTORS, type Sends } from '../../supervisors/actors.js';
import { WatcherCore } from './core.js';
import { isRealFolder, makeIgnore, unsupportedName, type IgnoreMatcher } from './scan.js';
import { dayLogGlob } from '../memory/paths.js';

const { b, board, log } = boot();
const cfg = b.config;
// monotonic, not wall time: debounce and rename-window deadlines must not move when the system clock jumps, and
// oldestPendingAt (a board slot other threads read) must share one origin across threads
const clock = monotonicClock;

interface State {
  core: WatcherCore;
  ignore: IgnoreMatcher;
}

runActor<WatcherMsg, Sends<'watcher'>, State>(
  async (msg, ctx) => {
    const { core, ignore } = ctx.state;
    switch (msg.type) {
      case 'watcher.rescan':
        await reconcileFromIndex(core);
        return;
      case 'watcher.fs_events': {
        const notes: VaultPath[] = [];
        for (const rel of msg.paths) {
          if (!ignore(rel, false)) {
            const odd = unsupportedName(rel);
            if (odd !== null) {
              ctx.emit({ type: 'store.file_failed', path: vaultPath(rel), reason: 'unsupported_name', message: odd });
              continue;
            }
            notes.push(vaultPath(rel));
            // a folder named like a note ('x.md/'): the events of notes made in it at once can be missed, so scan it;
            // and when such a folder became a file, the notes it held may get no event of their own
            if (!ignore(rel, true) && (core.heldNotes(rel) || (await isRealFolder(cfg.vault, rel)))) await core.onFolder(rel);
          } else if (!rel.toLowerCase().endsWith('.md') && !ignore(rel, true)) await core.onFolder(rel); // maybe a folder
        }
        if (notes.length) {
          log.debug({ event: 'vault_watch_event', count: notes.length }, 'vault changed');
          core.onPaths(notes);
        }
        return;
      }
      default:
        ctx.state.core.handle(msg);
    }
  },
  async (init) => {
    // the fact log's day logs are indexed fact by fact by the memory actor, not as notes
    const ignore = makeIgnore([...cfg.watcher.ignore, dayLogGlob(cfg.memory.folder)]);
    const core = new WatcherCore({
      root: cfg.vault,
      ignore,
      clock,
      debounceMs: cfg.watcher.debounce_ms,
      renameWindowMs: cfg.watcher.rename_window_ms,
      maxInFlight: ACTORS.watcher.admit,
      emit: (m) => init.emit(m),
      board,
      log,
    });
    await reconcileFromIndex(core);
    return { core, ignore };
  },
);

async function reconcileFromIndex(core: WatcherCore): Promise<void> {
  const db = openIndex(b.dbFile, { readonly: true, cacheMiB: 4 });
  const indexed = new Map<string, IndexedState>();
  const reader = new IndexReader(db, { userId: cfg.user_id });
  for (const [p, st] of reader.documentStats(SOURCE_VAULT)) {
    // chunks built by another chunker version are rebuilt: stats that never match, a hash that never short-circuits
    indexed.set(p, st.chunkerVersion === CHUNKER_VERSION ? st : { mtimeMs: -1, size: -1, contentHash: `stale:${st.contentHash}` });
  }
  const reported = reader.fileStatuses().map((f) => f.path);
  db.close();
  await core.reconcile(indexed, reported);
  board.set('reconciledAt', Date.now());
}
