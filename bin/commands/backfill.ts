// `memvault backfill --source vault|chat|task|correction|all [--from FILE.jsonl]`: imports episodes from a JSONL
// export (one episode per line, shaped as POST /v1/episodes takes them) and, for vault/all, reconciles the vault.
// Through the running daemon when there is one, else with a one-shot pipeline in this process. Idempotent: episodes
// are keyed by their ids, so a second run changes no row counts. One source failing never stops the others.
import { readFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import { checkEpisodes, MAX_EPISODES } from '../../actors/gateway/episode-schema.js';
import { Daemon } from '../../main/daemon.js';
import type { Episode } from '../../messages/episodes.js';
import type { AppendResult, CloseResult } from '../../messages/to-memory.js';
import { makeLogger, ONE_SHOT_STDERR } from '../../supervisors/runtime/log.js';
import { CommandFailure, configFor, EXIT, requireVault, UsageError, type Args } from '../args.js';
import { callDaemon, findDaemon } from '../client.js';

type Kind = 'chat' | 'task' | 'correction';

interface SourceResult {
  source: Kind | 'vault';
  sent: number;
  accepted: number;
  rejected: number;
  error: string | null;
}

/** How episodes reach the memory actor: the daemon's HTTP API, or a one-shot pipeline's router. */
interface Sink {
  append(episodes: unknown[]): Promise<{ accepted: number; rejected: number; error: string | null }>;
  close(session: string): Promise<void>;
  reconcile(): Promise<void>;
  done(): Promise<void>;
}

function httpSink(d: { url: string; token: string }): Sink {
  return {
    async append(episodes) {
      try {
        const r = await callDaemon<{ accepted: number; rejected?: unknown[] }>(d, 'POST', '/v1/episodes', { episodes });
        return { accepted: r.accepted, rejected: r.rejected?.length ?? 0, error: null };
      } catch (err) {
        // the daemon gone or not answering: nothing more can be sent, and what was not sent was not refused
        if ((err as { code?: unknown }).code === undefined)
          throw new CommandFailure(
            `the daemon stopped answering (${(err as Error).message}); this batch and the rest were not sent — start it again and run the backfill again (it is idempotent: what arrived is not doubled)`,
          );
        // every item refused (400) or the daemon unable to take them: the batch counts as rejected
        return { accepted: 0, rejected: episodes.length, error: (err as Error).message };
      }
    },
    async close(session) {
      await callDaemon(d, 'POST', `/v1/episodes/sessions/${encodeURIComponent(session)}/close`, {});
    },
    async reconcile() {
      await callDaemon(d, 'POST', '/v1/reconcile', {});
      // caught up when nothing is pending a few looks in a row
      for (let quiet = 0; quiet < 3; ) {
        await new Promise((r) => setTimeout(r, 200));
        const s = (await callDaemon<{ index: { pending: number; in_flight: number; reconciled: boolean } }>(d, 'GET', '/v1/status')).index;
        quiet = s.reconciled && s.pending === 0 && s.in_flight === 0 ? quiet + 1 : 0;
      }
    },
    async done() {},
  };
}

async function directSink(daemon: Daemon, maxTextBytes: number): Promise<Sink> {
  await daemon.start(); // the one-shot pipeline reconciles the vault as it starts
  return {
    async append(episodes) {
      const checked = checkEpisodes({ episodes }, { maxTextBytes, now: Date.now() });
      if (!checked.ok) return { accepted: 0, rejected: episodes.length, error: checked.error.message };
      const ok = checked.result.accepted;
      if (ok.length === 0) return { accepted: 0, rejected: checked.result.rejected.length, error: null };
      const r = (await daemon.router.request(
        { type: 'memory.append', episodes: ok.map(({ ep, at }) => ({ ep, at })), agent: 'backfill', guard: false },
        'main',
        60_000,
      )) as AppendResult;
      if (!r.ok) return { accepted: 0, rejected: episodes.length, error: `${r.reason}: ${r.message}` };
      return { accepted: r.accepted, rejected: checked.result.rejected.length, error: null };
    },
    async close(session) {
      const r = (await daemon.router.request({ type: 'memory.close_session', session, agent: 'backfill' }, 'main', 60_000)) as CloseResult;
      if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
    },
    async reconcile() {},
    async done() {
      await daemon.whenCaughtUp();
      await daemon.stop('backfill complete', 0);
    },
  };
}

/** The export's lines, parsed; a line that is not JSON counts against the source its `type` cannot name (none). */
function readExport(file: string): { episodes: Array<Record<string, unknown>>; unreadable: number } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CommandFailure(`cannot read --from ${file}: ${(err as Error).message}`);
  }
  const episodes: Array<Record<string, unknown>> = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) episodes.push(v as Record<string, unknown>);
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  return { episodes, unreadable };
}

export async function backfillCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: true });
  const source = (a.source ?? 'all') as Kind | 'vault' | 'all';
  const kinds: Kind[] = source === 'all' ? ['chat', 'task', 'correction'] : source === 'vault' ? [] : [source];
  if (source !== 'vault' && source !== 'all' && !a.from) throw new UsageError(`--source ${source} needs --from FILE.jsonl`);
  const { episodes, unreadable } = a.from ? readExport(a.from) : { episodes: [], unreadable: 0 };
  const running = await findDaemon(cfg);
  if (!running) requireVault(cfg);
  const stderrLevel = ONE_SHOT_STDERR; // its threads' too: not a line per episode
  const log = makeLogger('main', { level: cfg.log.level, stderrLevel, dataDir: cfg.data_dir });
  const sink = running
    ? httpSink(running)
    : await directSink(new Daemon(cfg, { mode: 'oneshot', log, stderrLevel }), cfg.episodes.max_text_bytes);

  const results: SourceResult[] = [];
  const total = kinds.reduce((n, k) => n + episodes.filter((e) => e['type'] === k).length, 0);
  const bar =
    process.stderr.isTTY && total > 0
      ? new cliProgress.SingleBar(
          { format: 'backfill |{bar}| {value}/{total} episodes | {source}', hideCursor: true, stream: process.stderr },
          cliProgress.Presets.shades_classic,
        )
      : null;
  bar?.start(total, 0, { source: '' });
  let done = 0;
  for (const kind of kinds) {
    const mine = episodes.filter((e) => e['type'] === kind);
    const r: SourceResult = { source: kind, sent: 0, accepted: 0, rejected: 0, error: null };
    try {
      for (let i = 0; i < mine.length; i += MAX_EPISODES) {
        const batch = mine.slice(i, i + MAX_EPISODES);
        const out = await sink.append(batch);
        r.sent += batch.length;
        r.accepted += out.accepted;
        r.rejected += out.rejected;
        r.error ??= out.error;
        done += batch.length;
        bar?.update(done, { source: kind });
      }
      // an export holds conversations that are over: their turns are final
      if (kind === 'chat')
        for (const s of new Set(
          mine.map((e) => (e as unknown as Episode & { session_id?: unknown }).session_id).filter((x) => typeof x === 'string'),
        ))
          await sink.close(s as string);
    } catch (err) {
      r.error = (err as Error).message;
    }
    results.push(r);
  }
  if (source === 'vault' || source === 'all') {
    const r: SourceResult = { source: 'vault', sent: 0, accepted: 0, rejected: 0, error: null };
    try {
      await sink.reconcile();
    } catch (err) {
      r.error = (err as Error).message;
    }
    results.push(r);
  }
  await sink.done();
  bar?.stop();
  const failed = results.filter((r) => r.error !== null || r.rejected > 0);
  if (a.json)
    process.stdout.write(`${JSON.stringify({ via: running ? 'daemon' : 'direct', results, unreadable_lines: unreadable }, null, 2)}\n`);
  else {
    const lines = results.map((r) =>
      r.source === 'vault'
        ? `vault       ${r.error ? `FAILED: ${r.error}` : 'reconciled'}`
        : `${r.source.padEnd(11)} ${String(r.accepted).padStart(7)} accepted, ${r.rejected} rejected${r.error ? `  (${r.error.slice(0, 200)})` : ''}`,
    );
    if (unreadable) lines.push(`${unreadable} line(s) of ${a.from} were not JSON objects`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return failed.length > 0 || unreadable > 0 ? EXIT.failure : EXIT.ok;
}
