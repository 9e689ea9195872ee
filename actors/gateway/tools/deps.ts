// What the tools are built from: the vault folder, the index view, the injected write path, and the limits from
// the configuration (read once here, so tool code never touches settings).
import type { Config } from '../../../config/load.js';
import type { EventLogger } from '../../../supervisors/runtime/log.js';
import type { IndexView } from '../index-view.js';
import type { Retrieve } from '../retrieval.js';
import type { ToolMetrics } from './metrics.js';
import type { WaitIndexed, WriteBackend } from './types.js';
import type { EpisodeBackend } from '../episodes-http.js';
import { memoryPaths } from '../../memory/paths.js';
import type { AuditEvent } from '../agents/audit-entry.js';
import type { IndexDamage } from '../index-damage.js';

export interface ToolDeps {
  /** Absolute vault folder. */
  vault: string;
  view: IndexView;
  /** Searches, timed and logged (retrieval.ts): the same for tools as for POST /v1/search. */
  search: Retrieve;
  /** null: this process has no write path (the write tools are never offered). */
  writes: WriteBackend | null;
  /** The memory actor (episodes: forget by id); null where none runs. */
  episodes: EpisodeBackend | null;
  waitIndexed: WaitIndexed;
  /** Globs of folders and files that are not notes (config watcher.ignore). */
  ignore: string[];
  /** Notes bigger than this are refused by vault_read (config chunker.max_file_bytes). */
  maxReadBytes: number;
  /** Payload cap for vault_write (config writes.max_bytes). */
  maxWriteBytes: number;
  /** May agents read the content of sensitive notes? (config writes.agents_may_read_sensitive; default false) */
  mayReadSensitive: boolean;
  /** How long wait_indexed waits before answering `indexed: false`. */
  waitTimeoutMs: number;
  /** The fact log's paths (memory.folder): vault_write refuses them as `reserved`. */
  reserved: (rel: string) => boolean;
  /** Top-level folders agents may write (writes.allowlist; none with writes off): the MCP instructions name them. */
  writable: readonly string[];
  /** The fact log's day-log folder (memory.folder/Log): where memory_remember writes, for agents' folder grants. */
  factLog?: string;
  /** The fact log's tombstones file (memory.folder/tombstones.jsonl). */
  tombstones?: string;
  /** Appends one line to the audit trail (agents/audit.ts); absent: no trail kept. */
  audit?: (e: AuditEvent) => void;
  /** Fact predicates (config knowledge) and where facts about a subject without a note go. */
  knowledge: {
    singleValued: ReadonlySet<string>;
    temporary: ReadonlySet<string>;
    entitiesFolder: string;
    /** The owner's note title: their facts open the context. */
    owner: string;
    autoLoadDays: number;
    maxChars: number;
    recallK: number;
  };
  /** An error that says the index file is damaged: its rebuild started, the failure to answer (index-damage.ts). */
  damaged?: IndexDamage['check'];
  log: EventLogger;
  metrics: ToolMetrics;
  version: string;
}

/** The settings-derived part of ToolDeps. */
export function toolLimits(
  cfg: Config,
): Pick<
  ToolDeps,
  | 'vault'
  | 'ignore'
  | 'maxReadBytes'
  | 'maxWriteBytes'
  | 'mayReadSensitive'
  | 'waitTimeoutMs'
  | 'writable'
  | 'reserved'
  | 'factLog'
  | 'tombstones'
  | 'knowledge'
> {
  return {
    vault: cfg.vault,
    ignore: cfg.watcher.ignore,
    maxReadBytes: cfg.chunker.max_file_bytes,
    maxWriteBytes: cfg.writes.max_bytes,
    mayReadSensitive: cfg.writes.agents_may_read_sensitive,
    waitTimeoutMs: 15_000,
    writable: cfg.writes.enabled ? cfg.writes.allowlist : [],
    reserved: memoryPaths(cfg.memory.folder).isReserved,
    factLog: memoryPaths(cfg.memory.folder).logFolder,
    tombstones: memoryPaths(cfg.memory.folder).tombstones,
    knowledge: {
      singleValued: new Set(cfg.knowledge.single_valued),
      temporary: new Set(cfg.knowledge.temporary),
      entitiesFolder: `${cfg.memory.folder}/Entities`,
      owner: cfg.knowledge.owner ?? cfg.writes.person.name,
      autoLoadDays: cfg.knowledge.context.auto_load_days,
      maxChars: cfg.knowledge.context.max_chars,
      recallK: cfg.knowledge.context.recall_k,
    },
  };
}
