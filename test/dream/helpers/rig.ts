// A dream cycle on real parts without the daemon: a real vault folder under git (GitRepo + VaultWriter, the git
// writer's own library, committing as agent `dream` with its trailers), the real LLM client talking to the loopback
// chat-completions server (scripted tool calls, every request recorded), the state file in a temp data dir, and a
// manual clock. Day logs are written as the memory tools write them; `logHashes` proves they stay byte-identical.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dreamSchema } from '../../../config/schema-dream.js';
import { llmSchema } from '../../../config/schema-llm.js';
import { DreamCycle, type CycleDeps } from '../../../actors/dream/cycle.js';
import { coveredPath } from '../../../actors/dream/covered-file.js';
import { LogDays } from '../../../actors/dream/log-days.js';
import { regenerateMemoryMd } from '../../../actors/dream/memory-md.js';
import { promptFile } from '../../../actors/dream/prompt.js';
import { DreamStateFile } from '../../../actors/dream/state-file.js';
import { planJournal } from '../../../actors/git-writer/dream-writes.js';
import { GitRepo } from '../../../actors/git-writer/git-repo.js';
import { VaultWriter } from '../../../actors/git-writer/vault/vault-writer.js';
import { formatFactLine, factId, appendToDayLog } from '../../../actors/memory/fact-log.js';
import { makeVault, startDaemon, testConfig, type Running, type TestVault } from '../../helpers/daemon.js';
import { memoryPaths } from '../../../actors/memory/paths.js';
import { LlmClient } from '../../../actors/scheduler/llm/client.js';
import type { Caller, MutationResult, VaultOp } from '../../../messages/vault-ops.js';
import { FakeLlm } from '../../helpers/fake-llm.js';
import { ManualClock } from '../../helpers/manual-clock.js';

export interface Rig {
  v: TestVault;
  llm: FakeLlm;
  clock: ManualClock;
  repo: GitRepo;
  dataDir: string;
  events: Array<{ event: string; fields: Record<string, unknown> }>;
  tools: Array<{ tool: string; outcome: string }>;
  cycle: DreamCycle;
  /** A new cycle on the same state file and vault (a restart). */
  restart(): DreamCycle;
  read(rel: string): string | null;
  /** sha256 of every day log and the tombstones file. */
  logHashes(): Record<string, string>;
  /** The fact id of `content` logged on `date`. */
  id(date: string, content: string): string;
}

const memory = memoryPaths('Memory');

/** A day log with `facts` under one header, as memory_remember writes it. */
export function dayLog(date: string, facts: string[], who = 'claude'): string {
  let text: string | null = null;
  for (const f of facts) text = appendToDayLog(text, date, '09:00', who, formatFactLine({ content: f, tags: [] })).text;
  return text ?? `# ${date}\n`;
}

export async function dreamRig(
  t: { teardown(fn: () => unknown): void },
  opts: {
    days: Record<string, string[]>;
    files?: Record<string, string>;
    start: string;
    dream?: Record<string, unknown>;
    tz?: string;
    /** The run's prompt template (default: the bundled prompts/llm/dream.liquid). */
    promptFile?: string;
    /** Regenerate MEMORY.md after each consolidated run, as the daemon does. */
    memoryMd?: boolean;
  },
): Promise<Rig> {
  const files: Record<string, string> = { ...(opts.files ?? {}) };
  for (const [date, facts] of Object.entries(opts.days)) files[memory.dayLog(date)] = dayLog(date, facts);
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-dream-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  const repo = await GitRepo.open(v.dir, {
    author: { name: 'memvault', email: 'memvault@localhost' },
    person: { name: 'vault owner', email: 'owner@localhost' },
  });
  if (!(repo instanceof GitRepo)) throw new Error(`git: ${repo.message}`);
  const writer = new VaultWriter({ root: v.dir, allowlist: ['Inbox', 'Memory'], reserved: memory.isReserved });
  const cfg = dreamSchema.parse(opts.dream ?? {});
  const clock = new ManualClock(Date.parse(opts.start));
  const client = new LlmClient(llmSchema.parse({ base_url: llm.url, models: { default: 'fake-model' }, max_retries: 0, timeout_s: 5 }));
  const commit = async (op: VaultOp, caller: Caller, privileged: boolean): Promise<MutationResult> => {
    const a = await writer.apply(op, { ...caller, privileged });
    if (!a.ok) return a;
    const c = await repo.commit(a.paths, {
      op: op.op,
      paths: a.paths,
      agent: caller.agent,
      reason: caller.reason,
      skill: caller.skill,
      run: caller.run,
      batch: caller.batch,
    });
    if (!c.ok && c.reason !== 'nothing_to_commit') return { ok: false, reason: 'unavailable', message: c.message };
    return { ok: true, op: op.op, paths: a.paths, commit: c.ok ? c.sha : null, mtimeMs: a.mtimeMs, contentHash: a.contentHash };
  };
  const read = (rel: string) => {
    try {
      return readFileSync(path.join(v.dir, rel), 'utf8');
    } catch {
      return null;
    }
  };
  const rig: Rig = {
    v,
    llm,
    clock,
    repo,
    dataDir,
    events: [],
    tools: [],
    cycle: null as unknown as DreamCycle,
    restart() {
      rig.cycle = new DreamCycle(deps);
      return rig.cycle;
    },
    read,
    logHashes() {
      const out: Record<string, string> = {};
      const dir = path.join(v.dir, 'Memory', 'Log');
      for (const n of readdirSync(dir).sort())
        out[n] = createHash('sha256')
          .update(readFileSync(path.join(dir, n)))
          .digest('hex');
      const tomb = read(memory.tombstones);
      if (tomb !== null) out['tombstones.jsonl'] = createHash('sha256').update(tomb).digest('hex');
      return out;
    },
    id: (date, content) => factId(date, content),
  };
  const deps: CycleDeps = {
    vault: v.dir,
    zones: cfg.zones,
    memory,
    search: async () => [],
    mutate: (op, caller) => commit(op, caller, false),
    llm: client,
    days: new LogDays(v.dir, memory),
    promptFile: opts.promptFile ?? promptFile(null),
    now: () => clock.now(),
    maxSteps: cfg.max_steps,
    timeoutMs: cfg.timeout_s * 1000,
    coveredFile: coveredPath(dataDir),
    appendJournal: async (line, caller) => commit(await planJournal(v.dir, memory, line), caller, true),
    event: (event, fields) => rig.events.push({ event, fields }),
    toolCounted: (tool, outcome) => rig.tools.push({ tool, outcome }),
    tz: opts.tz ?? 'UTC',
    gate: cfg,
    state: new DreamStateFile(dataDir),
    readJournal: async () => read(memory.logNote),
    ...(opts.memoryMd
      ? {
          afterRun: async (run) => {
            const m = await regenerateMemoryMd(
              {
                vault: v.dir,
                dataDir,
                zones: cfg.zones,
                llm: client,
                promptFile: promptFile(null, 'dream_memory_md'),
                maxLines: cfg.memory_max_lines,
                now: () => clock.now(),
                today: () => new Date(clock.now()).toISOString().slice(0, 10),
                write: (content, caller) => commit({ op: 'write', path: 'MEMORY.md', content }, caller, true),
                event: (event, fields) => rig.events.push({ event, fields }),
              },
              run.id,
            );
            if (!m.ok) rig.events.push({ event: 'memory_md_failed', fields: { reason: m.reason } });
          },
        }
      : {}),
  };
  rig.cycle = new DreamCycle(deps);
  return rig;
}

/** A page with `sources:` frontmatter. */
export function page(sources: string[], body: string): string {
  return `---\nsources: [${sources.join(', ')}]\n---\n${body.endsWith('\n') ? body : `${body}\n`}`;
}

/**
 * A daemon whose dream is run by hand (`POST /v1/consolidate`, `memvault consolidate`): the vault holds `day`'s log of
 * `facts` and a note, the LLM is the loopback server (no retries, 2 s timeout); all closed at teardown.
 */
export async function consolidateDaemon(
  t: { teardown(fn: () => unknown): void },
  day: string,
  facts: string[],
): Promise<{ llm: FakeLlm; v: TestVault; d: Running }> {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  const v = makeVault({ [`Memory/Log/${day}.md`]: dayLog(day, facts), 'Inbox/hello.md': '# Hello\n' });
  t.teardown(() => v.cleanup());
  const yaml = `writes:\n  human_quiet_ms: 200\nllm:\n  base_url: ${llm.url}\n  models: { default: fake-model }\n  max_retries: 0\n  timeout_s: 2\nscheduler:\n  tz: UTC\ndream:\n  enabled: false\n`;
  const d = await startDaemon(testConfig(v.dir, yaml));
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  return { llm, v, d };
}
