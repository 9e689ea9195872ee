// The dream inside the scheduler thread: the cycle built on the scheduler's LLM client and index view, its gate
// checked every dream.interval_s (when it is on and the LLM is not down), writes through the git writer (pages with
// git.mutate, the journal line with git.dream_journal), status and on-demand runs for the gateway, metrics, events.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Registry } from 'prom-client';
import type { Config } from '../../config/load.js';
import type { MutationResult, VaultOp, Caller } from '../../messages/vault-ops.js';
import type { Clock, TimerHandle } from '../../supervisors/clock.js';
import type { IndexView } from '../gateway/index-view.js';
import { memoryPaths } from '../memory/paths.js';
import type { LlmClient } from '../scheduler/llm/client.js';
import { localDate } from '../scheduler/dates.js';
import { overrideDir } from '../scheduler/templates/engine.js';
import { DreamCycle, type DreamStatus, type TickResult } from './cycle.js';
import { readWatermark } from './journal.js';
import { LogDays } from './log-days.js';
import { coveredPath } from './covered-file.js';
import { dreamMetrics } from './metrics.js';
import { regenerateMemoryMd } from './memory-md.js';
import { promptFile } from './prompt.js';
import { DreamStateFile } from './state-file.js';

export interface DreamServiceDeps {
  cfg: Config;
  tz: string;
  llm: LlmClient;
  view: IndexView;
  clock: Clock;
  registry: Registry;
  mutate(op: VaultOp, caller: Caller): Promise<MutationResult>;
  journal(line: string, caller: Caller): Promise<MutationResult>;
  memoryMd(content: string, caller: Caller): Promise<MutationResult>;
  /** Why LLM work idles now (endpoint down, not configured), or null. */
  idle(): string | null;
  log(event: string, fields: Record<string, unknown>): void;
}

export class DreamService {
  readonly cycle: DreamCycle;
  readonly #d: DreamServiceDeps;
  #timer: TimerHandle | null = null;
  #watermark: string | null = null;

  constructor(d: DreamServiceDeps) {
    this.#d = d;
    const cfg = d.cfg;
    const memory = memoryPaths(cfg.memory.folder);
    const metrics = dreamMetrics(d.registry, () => this.#ageDays());
    const journalFile = path.join(cfg.vault, ...memory.logNote.split('/'));
    this.cycle = new DreamCycle({
      vault: cfg.vault,
      zones: cfg.dream.zones,
      memory,
      search: async (query, k) => {
        const r = await d.view.search({ query, k, filters: { include_consolidated: true } });
        return r.results.map((h) => ({ path: h.path ?? h.title, text: h.snippet, ...(h.fact_id ? { factId: h.fact_id } : {}) }));
      },
      mutate: d.mutate,
      llm: d.llm,
      days: new LogDays(cfg.vault, memory),
      promptFile: promptFile(overrideDir(cfg)),
      now: () => d.clock.now(),
      maxSteps: cfg.dream.max_steps,
      timeoutMs: cfg.dream.timeout_s * 1000,
      appendJournal: d.journal,
      coveredFile: coveredPath(cfg.data_dir),
      event: (name, fields) => {
        d.log(name, fields);
        if (name === 'dream_batch_skipped') metrics.runs.inc({ outcome: 'skipped' });
        if (name === 'dream_watermark_advanced') this.#watermark = String(fields['watermark']);
      },
      toolCounted: (tool, outcome) => metrics.toolCalls.inc({ tool: tool.slice(0, 40), outcome }),
      tz: d.tz,
      gate: cfg.dream,
      state: new DreamStateFile(cfg.data_dir),
      readJournal: async () => {
        const text = await readFile(journalFile, 'utf8').catch(() => null);
        this.#watermark = readWatermark(text);
        return text;
      },
      afterRun: async (r) => {
        metrics.pages.inc(r.pages.length);
        metrics.facts.inc({ coverage: 'covered' }, r.covered.length);
        metrics.facts.inc({ coverage: 'uncovered' }, r.uncovered.length);
        const m = await regenerateMemoryMd(
          {
            vault: cfg.vault,
            dataDir: cfg.data_dir,
            zones: cfg.dream.zones,
            llm: d.llm,
            promptFile: promptFile(overrideDir(cfg), 'dream_memory_md'),
            maxLines: cfg.dream.memory_max_lines,
            now: () => d.clock.now(),
            today: () => localDate(d.clock.now(), d.tz),
            write: d.memoryMd,
            event: d.log,
          },
          r.id,
        );
        // the run stands either way: MEMORY.md is regenerated again after the next one
        if (!m.ok) d.log('memory_md_failed', { run: r.id, reason: m.reason });
      },
    });
    this.#count = (outcome) => metrics.runs.inc({ outcome });
  }

  readonly #count: (outcome: string) => void;

  #ageDays(): number | null {
    if (!this.#watermark) return null;
    const today = localDate(this.#d.clock.now(), this.#d.tz);
    return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${this.#watermark}T00:00:00Z`)) / 86_400_000);
  }

  get enabled(): boolean {
    return this.#d.cfg.dream.enabled ?? this.#d.cfg.llm !== undefined;
  }

  /** Arms the gate's timer (when the dream is on). */
  start(): void {
    if (!this.enabled || this.#timer) return;
    const every = this.#d.cfg.dream.interval_s * 1000;
    const arm = () => {
      this.#timer = this.#d.clock.setTimeout(() => {
        void this.#scheduled()
          .catch((err: Error) => this.#d.log('dream_failed', { detail: err.message }))
          .finally(arm);
      }, every);
    };
    arm();
  }

  stop(): void {
    if (this.#timer) this.#d.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #scheduled(): Promise<void> {
    const idle = this.#d.idle();
    if (idle) {
      this.#d.log('dream_gate_checked', { decision: 'idle', reason: `llm: ${idle}` });
      return;
    }
    await this.#run({});
  }

  async #run(opts: { requested?: boolean; force?: boolean }): Promise<TickResult> {
    const r = await this.cycle.tick(opts);
    if (r.outcome !== 'busy' && r.outcome !== 'idle' && r.outcome !== 'skipped') this.#count(r.outcome);
    return r;
  }

  consolidate(force: boolean): Promise<TickResult> {
    return this.#run({ requested: true, force });
  }

  status(): Promise<DreamStatus> {
    return this.cycle.status();
  }
}
