// One USER.md curation run, without a thread: USER.md and the fact log's last days (forgotten facts left out, and
// listed as no longer true) go to the model, which answers {"ops": [...]}; the ops engine (user-md.ts) checks and
// applies them, and the outcome decides the write — USER.md and its audit line in one commit through the git writer,
// the audit line alone when everything was rejected, nothing at all when every op was a no-op.
import path from 'node:path';
import type { Failure } from '../../messages/common.js';
import { sha256Hex } from '../../messages/hash.js';
import type { NoteOutcome } from '../../messages/to-scheduler.js';
import type { MutationResult } from '../../messages/vault-ops.js';
import { isForgotten, parseDayLog, parseTombstones } from '../memory/fact-log.js';
import type { MemoryPaths } from '../memory/paths.js';
import { readIfPresent } from '../memory/read-if-present.js';
import type { Excerpt } from '../scheduler/templates/vars.js';
import { isSensitive, readFrontmatter } from '../chunker/frontmatter.js';
import { USER_MD } from '../git-writer/curation-writes.js';
import { auditLine, curate, parseOps } from './user-md.js';

export interface CurationRunDeps {
  vault: string;
  memory: MemoryPaths;
  /** The local dates (YYYY-MM-DD, newest first) whose day logs are the recent material. */
  days: string[];
  /** The material is cut to this many characters, newest day kept first. */
  maxChars: number;
  now(): number;
  /** The one LLM call: the prompt rendered from these variables; the answer's text. */
  ask(vars: { user_md: string; days: number; material: Excerpt[] }): Promise<{ ok: true; content: string } | Failure>;
  /** The git writer's `git.curation`: USER.md (unless null) and the audit line (unless null), one commit. */
  write(msg: { userMd: string | null; expectedHash?: string; auditLine: string | null }): Promise<MutationResult>;
}

/** What the run came to, as a scheduler job reports it (`results`: one row per op, its outcome and reason). */
export interface CurationReport extends NoteOutcome {
  results: NoteOutcome[];
  retry?: boolean;
}

/** The fact log's facts of `days` (forgotten ones left out), and the facts forgotten in that window, newest day first. */
export async function recentMaterial(vault: string, memory: MemoryPaths, days: string[], maxChars: number): Promise<Excerpt[]> {
  const tombText = (await readIfPresent(path.join(vault, memory.tombstones)))?.toString('utf8') ?? '';
  const tombs = parseTombstones(tombText);
  const out: Excerpt[] = [];
  let left = maxChars;
  const oldest = days[days.length - 1] ?? '';
  const newest = days[0] ?? '';
  const forgotten: string[] = [];
  for (const line of tombText.split('\n')) {
    try {
      const t = JSON.parse(line) as { fact?: unknown; at?: unknown };
      if (typeof t.fact === 'string' && typeof t.at === 'string' && t.at.slice(0, 10) >= oldest && t.at.slice(0, 10) <= newest)
        forgotten.push(`- ${t.fact}`);
    } catch {
      // not a tombstone
    }
  }
  if (forgotten.length) {
    const text = forgotten.join('\n').slice(0, left);
    out.push({ path: memory.tombstones, title: 'Forgotten: no longer true', text });
    left -= text.length;
  }
  for (const date of days) {
    if (left <= 0) break;
    const rel = memory.dayLog(date);
    const bytes = await readIfPresent(path.join(vault, ...rel.split('/')));
    if (!bytes) continue;
    const facts = parseDayLog(bytes.toString('utf8'), date).filter((f) => !isForgotten(tombs, f.norm, date, f));
    if (facts.length === 0) continue;
    const text = facts
      .map((f) => `- ${f.time ?? ''} ${f.category ? `[${f.category}] ` : ''}${f.content}`.replace(/- {2}/, '- '))
      .join('\n')
      .slice(0, left);
    out.push({ path: rel, title: date, text });
    left -= text.length;
  }
  return out;
}

export async function runCuration(d: CurationRunDeps): Promise<CurationReport> {
  const bytes = await readIfPresent(path.join(d.vault, USER_MD));
  const current = bytes?.toString('utf8') ?? '';
  // a sensitive note never reaches the model, USER.md included
  if (isSensitive(readFrontmatter(current.replace(/^\ufeff/, '').split(/\r?\n/))))
    return skipped('sensitive: USER.md is marked sensitive (or memvault: local-only), so it is never sent to the model');
  const material = await recentMaterial(d.vault, d.memory, d.days, d.maxChars);
  if (material.length === 0)
    return skipped(`no_material: the fact log holds nothing for ${d.days[d.days.length - 1]} … ${d.days[0]}; no LLM call`);
  const a = await d.ask({ user_md: current, days: d.days.length, material });
  if (!a.ok) {
    const passing = ['unreachable', 'timeout', 'rate_limited', 'server_error'].includes(a.reason);
    return { outcome: 'failed', path: USER_MD, commit: null, reason: `llm_${a.reason}: ${a.message}`, results: [], retry: passing };
  }
  const at = new Date(d.now()).toISOString();
  const ops = parseOps(a.content);
  if (ops === null) {
    // the whole answer is rejected: said in the audit file, USER.md untouched
    const line = JSON.stringify({ at, written: false, rejected: 'not_json', answer: a.content.slice(0, 500) });
    const w = await d.write({ userMd: null, auditLine: line });
    const reason = `llm_bad_output: not_json: the answer is not {"ops": [...]}: ${a.content.slice(0, 120)}`;
    return { outcome: 'failed', path: USER_MD, commit: w.ok ? w.commit : null, reason, results: [] };
  }
  const r = curate(current, ops);
  const audit = auditLine(at, r);
  const results: NoteOutcome[] = r.results.map((x) => ({
    outcome: x.outcome === 'applied' ? 'written' : 'skipped',
    path: USER_MD,
    commit: null,
    reason: x.reason ? `${x.outcome}: ${x.reason}` : x.outcome,
  }));
  if (r.text === null && audit === null) return { ...skipped('no_change: every op was a no-op; USER.md left as it is'), results };
  const w = await d.write({ userMd: r.text, ...(r.text !== null && bytes ? { expectedHash: sha256Hex(bytes) } : {}), auditLine: audit });
  if (!w.ok)
    return {
      outcome: 'failed',
      path: USER_MD,
      commit: null,
      reason: `write_${w.reason}: ${w.message}`,
      results,
      retry: w.reason === 'unavailable' || w.reason === 'busy',
    };
  const rejected = r.results.filter((x) => x.outcome === 'rejected').length;
  if (r.text === null)
    return {
      outcome: 'skipped',
      path: USER_MD,
      commit: w.commit,
      reason: `rejected: ${rejected} op(s) refused, USER.md unchanged (see USER.md.audit.jsonl)`,
      results,
    };
  const withCommit = results.map((x) => ({ ...x, commit: x.outcome === 'written' ? w.commit : null }));
  return { outcome: 'written', path: USER_MD, commit: w.commit, reason: null, results: withCommit };
}

function skipped(reason: string): CurationReport {
  return { outcome: 'skipped', path: USER_MD, commit: null, reason, results: [] };
}
