// The scheduler actor (worker thread): runs the skills on their schedules (core.ts, on the wall clock) and on request
// (`POST /v1/jobs/<job>/run`, `memvault run`), keeps the LLM endpoint's state on the board, reads the index through
// its own read-only view, and writes every note through the git writer (`git.mutate`), the one mutation path.
import { Counter } from 'prom-client';
import { runActor } from '../../supervisors/runtime/worker.js';
import { boot } from '../../supervisors/runtime/boot.js';
import { LLM_STATES, stateCode } from '../../supervisors/runtime/board.js';
import type { Clock } from '../../supervisors/clock.js';
import { assertNever, fail } from '../../messages/common.js';
import type { SchedulerMsg } from '../../messages/to-scheduler.js';
import type { Asks, Sends } from '../../supervisors/actors.js';
import { LlmClient } from './llm/client.js';
import { LlmHealth } from './llm/health.js';
import { InvocationLog } from './llm/invocation-log.js';
import { llmMetrics } from './llm/metrics.js';
import { loadTemplates } from './templates/engine.js';
import { providerSettings } from '../embedder/factory.js';
import { poolClient, remoteQueryProvider } from '../embedder/pool-api.js';
import { configuredLimits, IndexView } from '../gateway/index-view.js';
import { llmStatus } from '../gateway/llm-status.js';
import { Context } from './context.js';
import { SchedulerCore } from './core.js';
import { localDate } from './dates.js';
import { coreJobs, idleReason, skillNamed } from './jobs.js';
import { PersonStubs } from './person-stubs.js';
import { systemZone } from './schedule.js';
import type { SkillEnv } from './skills/skill.js';
import { FileStateStore } from './state-file.js';
import { SkillWriter } from './writer.js';
import { DreamService } from '../dream/service.js';
import { CURATION_AGENT } from '../git-writer/curation-writes.js';

const { b, board, log } = boot();
const cfg = b.config;
const tz = cfg.scheduler.tz ?? systemZone();

/** The wall clock: cron slots are wall-clock times (the core copes with the wall clock stepping). */
const wallClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** A note write may wait behind a busy git writer (its queue is bounded): a minute, like an agent's. */
const WRITE_TIMEOUT_MS = 60_000;
/** While a requested run works, the stall watchdog hears from it this often. */
const PROGRESS_MS = 5_000;

const autowrites = new Counter<'template' | 'outcome'>({
  name: 'memvault_autowrites_total',
  help: 'Notes the skills wrote or did not, by template and outcome (written, skipped_idempotent, skipped, failed)',
  labelNames: ['template', 'outcome'],
});
const runs = new Counter<'job' | 'trigger' | 'outcome'>({
  name: 'memvault_job_runs_total',
  help: 'Scheduler job runs by job, trigger (schedule, catch_up, manual) and outcome',
  labelNames: ['job', 'trigger', 'outcome'],
});

interface State {
  core: SchedulerCore | null;
  /** Why the scheduler cannot run anything (templates broken), or null. */
  off: string | null;
  /** The dream agent (actors/dream/service.ts), hosted here for the LLM client and the index view. */
  dream?: DreamService;
  /** Its read-only view of the index (the jobs' and the dream's reads). */
  view?: IndexView;
}

runActor<SchedulerMsg, Sends<'scheduler'>, State, Asks<'scheduler'>>(
  async (msg, ctx) => {
    const core = ctx.state.core;
    switch (msg.type) {
      case 'scheduler.jobs':
        ctx.reply({ jobs: core?.list() ?? [], llm: llmStatus(cfg, board) });
        return;
      case 'scheduler.run': {
        if (!core) {
          ctx.reply({ job: msg.job, outcome: 'failed', path: null, commit: null, reason: ctx.state.off, results: [], ms: 0 });
          return;
        }
        const beat = setInterval(() => ctx.progress(), PROGRESS_MS);
        try {
          const r = await core.runNow(msg.job, { ...(msg.date ? { date: msg.date } : {}), ...(msg.event ? { event: msg.event } : {}) });
          ctx.reply(r ?? fail('unknown_job', `no job named "${msg.job}"; GET /v1/jobs lists them`));
        } finally {
          clearInterval(beat);
        }
        return;
      }
      case 'scheduler.dream_status':
        ctx.reply(ctx.state.dream ? await ctx.state.dream.status() : fail('unavailable', ctx.state.off ?? 'the dream is not running'));
        return;
      case 'scheduler.consolidate': {
        const dream = ctx.state.dream;
        if (!dream) {
          ctx.reply(fail('unavailable', ctx.state.off ?? 'the dream is not running'));
          return;
        }
        const beat = setInterval(() => ctx.progress(), PROGRESS_MS);
        try {
          ctx.reply(await dream.consolidate(msg.force));
        } finally {
          clearInterval(beat);
        }
        return;
      }
      case 'scheduler.index_swapped':
        ctx.state.view?.followSwap();
        ctx.reply({ reopened: true });
        return;
      default:
        assertNever(msg);
    }
  },
  async (init) => {
    const t = loadTemplates(cfg);
    if (!t.templates) {
      // the daemon checks templates before it starts; a file changed since is reported, not crash-looped on
      const off = `templates_invalid: ${t.problems.map((p) => `${p.path}: ${p.rule}`).join('; ')}`;
      log.error({ event: 'scheduler_off', reason: off }, 'the scheduler runs no job');
      return { core: null, off };
    }
    const templates = t.templates;
    const view = new IndexView(b.dbFile, board, configuredLimits(cfg));
    if (b.port)
      view.providerSettled = remoteQueryProvider(poolClient(b.port), providerSettings(cfg)).then(
        (provider) => (view.provider = { state: 'ready', provider }),
        (err: NodeJS.ErrnoException) =>
          (view.provider = { state: 'unavailable', reason: `${err.code ?? 'provider_failed'}: ${err.message}` }),
      );
    let core: SchedulerCore | null = null;
    const health: LlmHealth = new LlmHealth({
      client: new LlmClient(cfg.llm),
      clock: wallClock,
      onChange: (state, message) => {
        board.set('llmState', stateCode(LLM_STATES, state));
        log.info({ event: 'llm_state', state, reason: message }, `LLM ${state}`);
        if (state === 'ready') core?.poke();
      },
    });
    const llm = new LlmClient(cfg.llm, {
      log: new InvocationLog(cfg.data_dir),
      metrics: llmMetrics(init.metrics),
      onOutcome: (outcome, message) => health.observe(outcome, message),
      onLogError: (m) => log.warn({ event: 'llm_invocation_log_failed', detail: m }, 'could not write the invocation log'),
    });
    const stubs = new PersonStubs(cfg, view, () => writer, wallClock.now);
    const writer: SkillWriter = new SkillWriter({
      vault: cfg.vault,
      templates,
      mutate: (op, caller) => init.request({ type: 'git.mutate', op, caller: { ...caller, mayReadSensitive: false } }, WRITE_TIMEOUT_MS),
      log: (event, fields, level) => log[level ?? 'info']({ ...fields, event }, event),
      count: (template, outcome) => autowrites.inc({ template, outcome }),
      written: (note) => stubs.after(note),
    });
    const env: SkillEnv = {
      cfg,
      tz,
      now: wallClock.now,
      ctx: new Context(view, cfg.vault),
      writer,
      ask: { llm, templates, today: () => ({ today: localDate(Date.now(), tz), tz }) },
      log: (event, fields) => log.info({ ...fields, event }, event),
      remember: (fact, caller) => init.request({ type: 'git.remember', fact, caller }, WRITE_TIMEOUT_MS),
      writeUserMd: (m) =>
        init.request(
          { type: 'git.curation', ...m, caller: { agent: CURATION_AGENT, reason: 'USER.md curation', skill: 'curation' } },
          WRITE_TIMEOUT_MS,
        ),
    };
    core = new SchedulerCore({
      clock: wallClock,
      store: new FileStateStore(cfg.data_dir),
      jobs: coreJobs(cfg, tz),
      tz,
      catchUpMs: cfg.scheduler.catch_up_hours * 3_600_000,
      idle: (job, manual) => {
        const s = skillNamed(job);
        return s ? idleReason(cfg, s, health.idleReason(), manual) : null;
      },
      run: async (req) => {
        const s = skillNamed(req.job);
        if (!s) return { outcome: 'failed', path: null, commit: null, reason: `unknown job ${req.job}`, results: [] };
        const r = await s.run(env, req);
        runs.inc({ job: req.job, trigger: req.trigger, outcome: r.outcome });
        return r;
      },
      log: (event, fields, level) => log[level ?? 'info']({ ...fields, event }, event),
    });
    void health.start(); // a slow endpoint must not hold up the start: jobs see `checking` meanwhile
    core.start();
    const dream = new DreamService({
      cfg,
      tz,
      llm,
      view,
      clock: wallClock,
      registry: init.metrics,
      mutate: (op, caller) => init.request({ type: 'git.mutate', op, caller: { ...caller, mayReadSensitive: false } }, WRITE_TIMEOUT_MS),
      journal: (line, caller) => init.request({ type: 'git.dream_journal', line, caller }, WRITE_TIMEOUT_MS),
      memoryMd: (content, caller) => init.request({ type: 'git.dream_memory_md', content, caller }, WRITE_TIMEOUT_MS),
      idle: () => health.idleReason(),
      log: (event, fields) => log.info({ ...fields, event }, event),
    });
    dream.start();
    return { core, off: null, dream, view };
  },
  { concurrency: 8 },
);
