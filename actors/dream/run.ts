// One dream run over one batch: the prompt (the batch's facts with their ids, the wiki's pages, the rules), the
// tool-calling loop (at most max_steps tool calls, timeout_s of wall time), then the proof of work — only when a
// page in the zones changed (content hashes before/after) is the watermark line appended to Memory/log.md, one
// commit; no change, and the caller counts a failure. Refused tool calls are shown to the model and the run goes on.
import type { Caller, MutationResult } from '../../messages/vault-ops.js';
import type { LlmClient } from '../scheduler/llm/client.js';
import type { ChatMessage } from '../scheduler/llm/types.js';
import { changedPages, coverageOf, pageHashes, refreshCovered, zonePages } from './coverage.js';
import { loadCovered, saveCovered } from './covered-file.js';
import { formatEntry } from './journal.js';
import type { LogDays } from './log-days.js';
import { type DreamPromptVars, renderPrompt } from './prompt.js';
import type { RunOutcome } from './state-file.js';
import { runTool, TOOL_DEFS, type ToolDeps } from './tools.js';

export const DREAM_AGENT = 'dream';

export interface RunDeps extends Omit<ToolDeps, 'caller'> {
  llm: LlmClient;
  days: LogDays;
  promptFile: string;
  /** Wall-clock ms: the run's deadline and the journal's timestamps. */
  now(): number;
  today(): string;
  maxSteps: number;
  timeoutMs: number;
  /** Appends one line to the journal (Memory/log.md): a privileged write through the git writer, one commit. */
  appendJournal(line: string, caller: Caller): Promise<MutationResult>;
  event(name: string, fields: Record<string, unknown>): void;
  /** The covered set (covered-file.ts): read before, written after a consolidated run; absent in no file. */
  coveredFile?: string;
  /** Counted per tool call: tool name (or `unknown`) and `ok` or the refusal reason. */
  toolCounted?(tool: string, outcome: string): void;
}

/** A run as POST /v1/consolidate answers it: field names in snake_case, like the rest of the HTTP API. */
export interface RunReport {
  id: string;
  outcome: Exclude<RunOutcome, 'skipped' | 'interrupted'>;
  batch: string;
  /** Whether the batch's failure count goes up (a run the LLM endpoint cut short does not count). */
  counts_as_failure: boolean;
  pages: string[];
  covered: string[];
  uncovered: string[];
  cited_only: string[];
  tokens: number;
  cost: number;
  tool_calls: number;
  refused: Array<{ tool: string; reason: string }>;
  watermark: string | null;
  reason: string | null;
}

export async function runBatch(d: RunDeps, run: { id: string; batch: readonly string[]; key: string }): Promise<RunReport> {
  const caller: Caller = {
    agent: DREAM_AGENT,
    reason: `dream run ${run.id} batch ${run.key}`,
    skill: 'dream',
    run: run.id,
    batch: run.key,
  };
  const tools: ToolDeps = { ...d, caller };
  const facts = await d.days.batch(run.batch);
  const before = await zonePages(d.vault, d.zones);
  const beforeHash = pageHashes(before);
  const last = run.batch[run.batch.length - 1]!;
  const vars: DreamPromptVars = {
    today: d.today(),
    batch: `the log days ${run.key}`,
    facts: facts.map((f) => ({ id: f.factId, time: f.time ?? '--:--', who: f.who ?? 'unknown', text: f.text })),
    pages: before.map((p) => p.rel),
    zones: d.zones.join(', '),
    conflicts_path: `Inbox/Conflicts ${last}.md`,
  };
  const prompt = renderPrompt(d.promptFile, vars);
  if (!prompt.ok) {
    // a broken override: nothing was asked, nothing written; the batch is not to blame
    d.event('dream_no_progress', { run: run.id, batch: run.key, reason: prompt.reason });
    return { ...emptyReport(run), outcome: 'failed', counts_as_failure: false, reason: prompt.reason };
  }
  const messages: ChatMessage[] = [{ role: 'user', content: prompt.text }];
  const report = emptyReport(run);
  const deadline = d.now() + d.timeoutMs;
  let llmFailed: string | null = null;
  let ended: string | null = null;
  while (ended === null) {
    if (d.now() >= deadline) {
      ended = `timeout: the run took longer than ${Math.round(d.timeoutMs / 1000)} s (dream.timeout_s)`;
      break;
    }
    const r = await d.llm.chat({ taskType: 'dream', messages, tools: TOOL_DEFS, temperature: 0.2 });
    if (!r.ok) {
      llmFailed = `llm_${r.reason}: ${r.message}`;
      break;
    }
    report.tokens += r.usage.tokensIn + r.usage.tokensOut;
    report.cost += r.costUsd;
    if (r.toolCalls.length === 0) break;
    messages.push({ role: 'assistant', content: r.content, tool_calls: r.toolCalls });
    for (const call of r.toolCalls) {
      if (report.tool_calls >= d.maxSteps) {
        messages.push({ role: 'tool', tool_call_id: call.id, content: 'refused (max_steps): the run has used all its tool calls' });
        ended = `max_steps: ${d.maxSteps} tool calls used (dream.max_steps)`;
        continue;
      }
      report.tool_calls++;
      const out = await runTool(tools, call.function.name, call.function.arguments);
      d.toolCounted?.(call.function.name, out.ok ? 'ok' : out.reason);
      if (!out.ok) {
        report.refused.push({ tool: call.function.name, reason: out.reason });
        d.event('dream_tool_refused', { run: run.id, tool: call.function.name, reason: out.reason, detail: out.text });
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: out.text });
    }
  }
  const after = await zonePages(d.vault, d.zones);
  report.pages = changedPages(beforeHash, pageHashes(after));
  if (report.pages.length === 0) {
    report.outcome = llmFailed ? 'failed' : 'no_progress';
    report.counts_as_failure = llmFailed === null; // an unreachable endpoint is not the batch's fault
    report.reason = llmFailed ?? ended ?? 'no page in the zones changed';
    if (!llmFailed) d.event('dream_no_progress', { run: run.id, batch: run.key, tool_calls: report.tool_calls, reason: report.reason });
    return report;
  }
  const cov = coverageOf(
    after,
    facts.map((f) => ({ factId: f.factId, content: f.content })),
  );
  report.covered = cov.covered;
  report.uncovered = cov.uncovered;
  report.cited_only = cov.citedOnly;
  const w = await d.appendJournal(
    formatEntry({
      at: new Date(d.now()).toISOString(),
      watermark: last,
      outcome: 'consolidated',
      batch: run.key,
      run: run.id,
      pages: report.pages.length,
      covered: cov.covered.length,
      uncovered: cov.uncovered.length,
    }),
    caller,
  );
  if (!w.ok) {
    // the pages are written (whole commits) but the watermark is not: the batch runs again and merges into them
    report.outcome = 'failed';
    report.counts_as_failure = false;
    report.reason = `journal_${w.reason}: ${w.message}`;
    return report;
  }
  // after the watermark's commit: a crash in between leaves these facts visible, never hidden without their page
  if (d.coveredFile) saveCovered(d.coveredFile, refreshCovered(loadCovered(d.coveredFile), after, facts));
  report.outcome = 'consolidated';
  report.counts_as_failure = false;
  report.watermark = last;
  report.reason = llmFailed ?? ended;
  d.event('dream_watermark_advanced', {
    run: run.id,
    watermark: last,
    pages: report.pages.length,
    covered: cov.covered.length,
    uncovered: cov.uncovered.length,
  });
  return report;
}

function emptyReport(run: { id: string; key: string }): RunReport {
  return {
    id: run.id,
    outcome: 'no_progress',
    batch: run.key,
    counts_as_failure: true,
    pages: [],
    covered: [],
    uncovered: [],
    cited_only: [],
    tokens: 0,
    cost: 0,
    tool_calls: 0,
    refused: [],
    watermark: null,
    reason: null,
  };
}
