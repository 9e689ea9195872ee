// The chunker actor (worker thread): reads a changed note, short-circuits unchanged bytes, parses and chunks it.
import { readFile } from 'node:fs/promises';
import { Counter } from 'prom-client';
import { runActor } from '../../supervisors/runtime/worker.js';
import { boot } from '../../supervisors/runtime/boot.js';
import { assertNever } from '../../messages/common.js';
import type { ChunkerMsg } from '../../messages/to-chunker.js';
import type { FileFailReason } from '../../messages/to-store.js';
import { ACTORS, type Sends } from '../../supervisors/actors.js';
import type { TokenCounter } from '../../messages/embedding.js';
import { providerSettings, tokenCounterFor } from '../embedder/factory.js';
import { locateNote } from '../watcher/scan.js';
import { parseNote } from './parse-note.js';
import { sha256Hex } from '../../messages/hash.js';

const { b, log } = boot();
const cfg = b.config;
const parsed = new Counter<'outcome'>({
  name: 'memvault_chunker_files_total',
  help: 'Files read by the chunker, by outcome',
  labelNames: ['outcome'],
});

function readFailure(err: unknown): { reason: FileFailReason; message: string } {
  const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
  const reason: FileFailReason =
    code === 'ENOENT' ? 'vanished' : code === 'ELOOP' ? 'symlink_loop' : code === 'EISDIR' ? 'not_a_file' : 'unreadable';
  return { reason, message: `${code}: ${(err as Error).message}` };
}

interface State {
  /** The model's tokenizer, loading beside start-up: a hub model's may still be downloading (first use). */
  tokens: Promise<TokenCounter>;
}

/** Well inside the stall watchdog's limit (none when `supervisor.stall_ms` is 0). */
const TICK_MS = Math.max(10, Math.min(250, (cfg.supervisor.stall_ms * ACTORS.chunker.stall) / 4 || 250));

/** The tokenizer; a note that arrives before it is ready waits, telling the stall watchdog it is not hung. */
async function tokensFor(ctx: { state: State; progress(): void }): Promise<TokenCounter> {
  const tick = setInterval(() => ctx.progress(), TICK_MS);
  try {
    return await ctx.state.tokens;
  } finally {
    clearInterval(tick);
  }
}

runActor<ChunkerMsg, Sends<'chunker'>, State>(
  async (msg, ctx) => {
    switch (msg.type) {
      case 'chunker.file_changed': {
        if (msg.size > cfg.chunker.max_file_bytes) {
          parsed.inc({ outcome: 'too_large' });
          ctx.emit({
            type: 'store.file_failed',
            path: msg.path,
            reason: 'too_large',
            message: `${msg.size} bytes is over chunker.max_file_bytes (${cfg.chunker.max_file_bytes}); raise it or split the note`,
          });
          return;
        }
        let bytes: Buffer;
        try {
          // checked again here, not only by the watcher: the file may have become a symlink out since it was stat'ed
          const at = await locateNote(cfg.vault, msg.path);
          if (at.kind !== 'inside') {
            const f =
              at.kind === 'outside'
                ? { reason: 'outside_vault' as const, message: at.message }
                : { reason: 'not_a_file' as const, message: 'reached through a symlinked folder, which memvault does not follow' };
            parsed.inc({ outcome: f.reason });
            ctx.emit({ type: 'store.file_failed', path: msg.path, ...f });
            return;
          }
          bytes = await readFile(at.real);
        } catch (err) {
          const f = readFailure(err);
          parsed.inc({ outcome: f.reason });
          ctx.emit({ type: 'store.file_failed', path: msg.path, ...f });
          return;
        }
        // the size the watcher saw may be stale (the file changed again): the next event brings the new one
        const contentHash = sha256Hex(bytes);
        if (contentHash === msg.indexedHash) {
          parsed.inc({ outcome: 'unchanged' });
          ctx.emit({ type: 'store.touch', path: msg.path, mtimeMs: msg.mtimeMs, size: msg.size, contentHash });
          return;
        }
        const tokens = await tokensFor(ctx);
        const r = parseNote(msg.path, bytes, tokens, {
          maxTokens: cfg.chunker.max_tokens ?? tokens.maxTokens,
          overlapTokens: cfg.chunker.overlap_tokens,
          maxBytes: cfg.chunker.max_file_bytes,
        });
        if (!r.ok) {
          parsed.inc({ outcome: r.reason });
          ctx.emit({ type: 'store.file_failed', path: msg.path, reason: r.reason, message: r.message });
          return;
        }
        parsed.inc({ outcome: 'parsed' });
        ctx.emit({ type: 'embedder.embed_note', note: r.note, mtimeMs: msg.mtimeMs, size: msg.size });
        return;
      }
      default:
        assertNever(msg.type);
    }
  },
  () => {
    // not awaited: a hub model downloading at first use must not hold up the daemon's start
    const tokens = tokenCounterFor(providerSettings(cfg)).then(({ counter, approximate }) => {
      if (approximate) log.warn({ event: 'embedder_unavailable', detail: approximate }, 'chunks sized with an approximate token count');
      return counter;
    });
    tokens.catch(() => undefined); // a failure surfaces in the first note that needs it
    return { tokens };
  },
);
