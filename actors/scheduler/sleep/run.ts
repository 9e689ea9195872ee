// One nightly extraction: the material since the cursor within its budget, one LLM call with USER.md and the current
// facts beside it, the tolerant parse, then the writes — each memory one fact-log line (memory_remember's path: one
// commit each, its topic as category), each fact through memory_add_fact's code (one commit each, or noop_dup) —
// and the cursor saved once they are done. NO_NEW_MEMORIES writes nothing and saves the cursor; an LLM or write
// path that is down saves nothing, so the owed run reads the same material again.
import type { MutationResult, RememberResult, VaultOp, Caller, FactInput } from '../../../messages/vault-ops.js';
import { addArgs, addFact, type AddFactDeps } from '../../gateway/tools/fact-tools.js';
import { formatFactLine, normaliseFact, parseFactLine } from '../../memory/fact-log.js';
import type { MemoryPaths } from '../../memory/paths.js';
import type { RunReport } from '../core.js';
import { localDate, localTime } from '../dates.js';
import type { LlmClient } from '../llm/client.js';
import type { Templates } from '../templates/engine.js';
import { llmFailure, type WriteOutcome } from '../writer.js';
import { combine } from '../skills/skill.js';
import { fitBudget } from './budget.js';
import { knownFacts, readUserMd } from './known.js';
import { readMaterial, SLEEP_WHO } from './material.js';
import { parseExtraction, SENTINEL, TOPICS, tripleArgs } from './parse.js';
import { loadSleepState, saveSleepState, type SleepState } from './state.js';

export interface SleepDeps {
  dataDir: string;
  vault: string;
  memory: MemoryPaths;
  tz: string;
  now(): number;
  /** `today`/`tz` for the system prompt. */
  today(): { today: string; tz: string };
  budget: number;
  /** Low autonomy: memories only, no fact written into a note. */
  writeFacts: boolean;
  llm: LlmClient;
  templates: Templates;
  facts: AddFactDeps;
  mutate(op: VaultOp, caller: Caller): Promise<MutationResult>;
  remember(fact: FactInput, caller: Caller): Promise<RememberResult>;
  stateFile: string;
  log(event: string, fields: Record<string, unknown>): void;
}

export const SLEEP_AGENT = 'memvault-scheduler';
const PASSING = new Set(['unavailable', 'busy', 'timeout']);

export async function runSleep(d: SleepDeps): Promise<RunReport> {
  const state = loadSleepState(d.stateFile);
  const now = d.now();
  const m = await readMaterial({ dataDir: d.dataDir, vault: d.vault, memory: d.memory, tz: d.tz, now }, state);
  const advance = (): SleepState => {
    const next = { ...m.cursor, lastRun: new Date(d.now()).toISOString() };
    saveSleepState(d.stateFile, next);
    return next;
  };
  if (m.items.length === 0) {
    advance();
    return {
      outcome: 'skipped',
      path: null,
      commit: null,
      reason: 'no_material: no conversations, tasks or fact-log lines since the last run',
      results: [],
    };
  }
  const items = fitBudget(m.items, d.budget);
  const known = knownFacts(d.facts.view.db, items.map((i) => i.text).join('\n'), d.facts.knowledge, now);
  const prompt = d.templates.renderLlm('sleep', {
    since: state.lastRun === null ? null : `${localDate(Date.parse(state.lastRun), d.tz)} ${localTime(Date.parse(state.lastRun), d.tz)}`,
    items: items.filter((i) => i.text !== '').map((i) => ({ label: i.label, text: i.text })),
    user_md: await readUserMd(d.vault),
    known_facts: known,
    topics: [...TOPICS],
    sentinel: SENTINEL,
  });
  const r = await d.llm.chat({
    taskType: 'sleep',
    messages: [
      { role: 'system', content: d.templates.renderLlm('system', d.today()) },
      { role: 'user', content: prompt },
    ],
    temperature: 0.2,
  });
  if (!r.ok) {
    const f = llmFailure(r);
    return { outcome: 'failed', path: null, commit: null, reason: f.reason, results: [], retry: f.retry };
  }
  const x = parseExtraction(r.content ?? '');
  for (const p of x.problems) d.log('sleep_parse_problem', { reason: p.reason, detail: p.detail });
  if (x.none) {
    advance();
    return { outcome: 'skipped', path: null, commit: null, reason: `no_new_memories: the model answered ${SENTINEL}`, results: [] };
  }
  const caller: Caller = { agent: SLEEP_AGENT, reason: 'sleep: nightly extraction', skill: 'sleep' };
  const outcomes: WriteOutcome[] = [];
  const seen = new Set(m.logged);
  for (const mem of x.memories) {
    const norm = normaliseFact(mem.text);
    if (seen.has(norm)) {
      outcomes.push({
        outcome: 'skipped',
        path: null,
        commit: null,
        reason: `noop_dup: already in the fact log: ${mem.text.slice(0, 80)}`,
      });
      continue;
    }
    seen.add(norm);
    // a line of nothing but #tags is no fact to the log's reader (memory_remember refuses it too)
    if (!parseFactLine(formatFactLine({ content: mem.text, category: mem.topic, tags: [] }))) {
      outcomes.push({
        outcome: 'skipped',
        path: null,
        commit: null,
        reason: `memory_rejected: nothing but tags: ${mem.text.slice(0, 80)}`,
      });
      continue;
    }
    let w: RememberResult;
    try {
      w = await d.remember({ content: mem.text, ...(mem.topic ? { category: mem.topic } : {}), tags: [], who: SLEEP_WHO }, caller);
    } catch (err) {
      w = { ok: false, reason: 'unavailable', message: (err as Error).message };
    }
    outcomes.push(
      w.ok
        ? { outcome: 'written', path: w.path, commit: w.commit, reason: null }
        : { outcome: 'failed', path: null, commit: null, reason: `memory_${w.reason}: ${w.message}`, retry: PASSING.has(w.reason) },
    );
  }
  for (const raw of d.writeFacts ? x.facts : []) {
    const a = addArgs.safeParse(tripleArgs(raw));
    if (!a.success) {
      const why = a.error.issues.map((i) => `${i.path.join('.') || '(fact)'}: ${i.message}`).join('; ');
      outcomes.push({
        outcome: 'skipped',
        path: null,
        commit: null,
        reason: `fact_rejected: ${why}: ${JSON.stringify(raw).slice(0, 160)}`,
      });
      continue;
    }
    let f: Awaited<ReturnType<typeof addFact>>;
    try {
      f = await addFact(d.facts, { mutate: (op, c) => d.mutate(op, { ...c, skill: 'sleep' }) }, { agent: SLEEP_AGENT }, a.data);
    } catch (err) {
      f = { ok: false, error: { reason: 'unavailable', message: (err as Error).message } };
    }
    const what = `${a.data.subject}: ${a.data.predicate}:: ${a.data.object}`;
    if (!f.ok && f.error.reason === 'bad_request')
      outcomes.push({ outcome: 'skipped', path: null, commit: null, reason: `fact_rejected: ${f.error.message} (${what})` });
    else if (!f.ok)
      outcomes.push({
        outcome: 'failed',
        path: null,
        commit: null,
        reason: `fact_${f.error.reason}: ${f.error.message} (${what})`,
        retry: PASSING.has(f.error.reason),
      });
    else {
      const res = f.result as { outcome: string; path?: string; commit?: string | null };
      outcomes.push(
        res.outcome === 'noop_dup'
          ? { outcome: 'skipped', path: null, commit: null, reason: `noop_dup: ${what}` }
          : {
              outcome: 'written',
              path: res.path ?? null,
              commit: res.commit ?? null,
              reason: res.outcome === 'superseded' ? `superseded: ${what}` : null,
            },
      );
    }
  }
  const report = combine(outcomes, 'no_new_memories: the answer held no memory and no fact');
  if (report.retry) return report; // the owed run reads the same material again; what was written dedups then
  advance();
  d.log('sleep_done', {
    answer_memories: x.memories.length,
    answer_facts: x.facts.length,
    written: outcomes.filter((o) => o.outcome === 'written').length,
    problems: x.problems.map((p) => p.reason),
    ...m.counts,
  });
  return report;
}
