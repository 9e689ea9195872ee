// The command line's shared pieces: parsed flags, exit codes, usage errors and the settings a command runs with.
import { statSync } from 'node:fs';
import { parseArgs as parseNodeArgs } from 'node:util';
import { loadConfig, type Config } from '../config/load.js';

export const EXIT = { ok: 0, failure: 1, usage: 2, config: 78 } as const;

export interface Args {
  vault?: string;
  config?: string;
  listen?: string;
  json: boolean;
  files: boolean;
  k?: number;
  mode?: string;
  group?: string;
  agent?: string;
  /** llm-usage and recall: how far back (`7d`, `24h`, `90m`, or a date). */
  since?: string;
  /** run: the day a job is for (YYYY-MM-DD) and the calendar event (UID) a meeting note is for. */
  date?: string;
  event?: string;
  /** `models pull`: the revision, ONNX file and hub (or mirror) to fetch from. */
  revision?: string;
  file?: string;
  hubUrl?: string;
  /** recall: how many memories to list. */
  top?: number;
  /** backfill: vault, chat, task, correction or all. */
  source?: string;
  /** backfill: the JSONL export to import. */
  from?: string;
  /** forget: find the fact by its words; with --confirm it is forgotten. */
  query?: string;
  confirm: boolean;
  /** forget: an episode id (chat:<session>:<message>, task:<id>, correction:<id>). */
  episode?: string;
  reason?: string;
  /** open: print the login link instead of opening a browser. */
  print: boolean;
  /** agents add: the grant (read|write|admin), folder prefixes (comma-separated), sensitive notes, rate (N/s|m|h). */
  scope?: string;
  folders?: string;
  sensitive: boolean;
  rate?: string;
  /** audit: refusals only. */
  refused: boolean;
  /** mcp: the agent token to call the daemon with (instead of the owner token). */
  tokenFile?: string;
  /** consolidate: also retry a batch that failed dream.max_retries times. */
  force: boolean;
  /** undo: the dream run to revert. */
  run?: string;
  /** facts, timeline, add-fact, invalidate: the entity, the instant, the predicate, the end, a passing fact. */
  entity?: string;
  at?: string;
  predicate?: string;
  until?: string;
  temporary: boolean;
  rest: string[];
}

/** Parses a command's flags; a bad one throws UsageError naming it. */
export function parseArgs(argv: string[]): Args {
  const { values, positionals } = parseNodeArgs({
    args: argv,
    allowPositionals: true,
    options: {
      vault: { type: 'string' },
      config: { type: 'string' },
      listen: { type: 'string' },
      json: { type: 'boolean', default: false },
      files: { type: 'boolean', default: false },
      k: { type: 'string', short: 'k' },
      mode: { type: 'string' },
      group: { type: 'string' },
      agent: { type: 'string' },
      since: { type: 'string' },
      date: { type: 'string' },
      event: { type: 'string' },
      revision: { type: 'string' },
      file: { type: 'string' },
      'hub-url': { type: 'string' },
      top: { type: 'string' },
      source: { type: 'string' },
      from: { type: 'string' },
      query: { type: 'string' },
      confirm: { type: 'boolean', default: false },
      episode: { type: 'string' },
      reason: { type: 'string' },
      print: { type: 'boolean', default: false },
      scope: { type: 'string' },
      folders: { type: 'string' },
      sensitive: { type: 'boolean', default: false },
      rate: { type: 'string' },
      refused: { type: 'boolean', default: false },
      'token-file': { type: 'string' },
      force: { type: 'boolean', default: false },
      run: { type: 'string' },
      entity: { type: 'string' },
      at: { type: 'string' },
      predicate: { type: 'string' },
      until: { type: 'string' },
      temporary: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) throw new UsageError('');
  let k: number | undefined;
  if (values.k !== undefined) {
    k = Number(values.k);
    if (!Number.isInteger(k) || k < 1) throw new UsageError('-k must be a positive integer');
  }
  if (values.mode !== undefined && !['hybrid', 'bm25', 'vector'].includes(values.mode))
    throw new UsageError('--mode must be hybrid, bm25 or vector');
  if (values.group !== undefined && !['note', 'chunk'].includes(values.group)) throw new UsageError('--group must be note or chunk');
  let top: number | undefined;
  if (values.top !== undefined) {
    top = Number(values.top);
    if (!Number.isInteger(top) || top < 1) throw new UsageError('--top must be a positive integer');
  }
  if (values.source !== undefined && !['vault', 'chat', 'task', 'correction', 'all'].includes(values.source))
    throw new UsageError('--source must be vault, chat, task, correction or all');
  return {
    vault: values.vault,
    config: values.config,
    listen: values.listen,
    json: values.json ?? false,
    files: values.files ?? false,
    k,
    mode: values.mode,
    group: values.group,
    agent: values.agent,
    since: values.since,
    date: values.date,
    event: values.event,
    revision: values.revision,
    file: values.file,
    hubUrl: values['hub-url'],
    top,
    source: values.source,
    from: values.from,
    query: values.query,
    confirm: values.confirm ?? false,
    episode: values.episode,
    reason: values.reason,
    print: values.print ?? false,
    scope: values.scope,
    folders: values.folders,
    sensitive: values.sensitive ?? false,
    rate: values.rate,
    refused: values.refused ?? false,
    tokenFile: values['token-file'],
    force: values.force ?? false,
    run: values.run,
    entity: values.entity,
    at: values.at,
    predicate: values.predicate,
    until: values.until,
    temporary: values.temporary ?? false,
    rest: positionals,
  };
}

export class UsageError extends Error {}
/** A command that was asked properly and could not do it (a missing file, an unknown agent): exit 1, no usage. */
export class CommandFailure extends Error {}

/**
 * For a command about to start a daemon or make the data dir: the vault must be a folder. A mistyped `--vault` was
 * made into a new empty vault (the data dir created inside it), served, and every search answered with nothing.
 */
export function requireVault(cfg: Config): void {
  if (statSync(cfg.vault, { throwIfNoEntry: false })?.isDirectory()) return;
  // a vault named by the config file's `vault:` was said to need a fix of --vault, a flag the command was not given
  const fix = vaultFromFile.has(cfg) ? `fix \`vault:\` in ${cfg.config_file}` : 'fix --vault';
  throw new CommandFailure(`${cfg.vault} is not a folder (vault_missing): create it first, or ${fix}`);
}

/** Settings whose vault came from the config file's `vault:` (not --vault, not the current folder). */
const vaultFromFile = new WeakSet<Config>();

/** Settings for a command: `--vault` (or the config's `vault`, or the current folder for read-only commands). */
export function configFor(a: Args, opts: { vaultRequired: boolean }): Config {
  if (opts.vaultRequired && !a.vault && !a.config) throw new UsageError('--vault DIR is required');
  const cfg = loadConfig({ file: a.config ?? null, vault: a.vault ?? (a.config ? undefined : process.cwd()), listen: a.listen });
  if (!a.vault && a.config) vaultFromFile.add(cfg);
  return cfg;
}
