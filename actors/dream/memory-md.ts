// MEMORY.md, regenerated after a consolidated run: one LLM call over the wiki's pages and the memories searches
// brought back most (the recall log), capped at dream.memory_max_lines, written as one commit by agent `dream`. A
// person's edit since the last regeneration is kept: the prompt shows it and says to keep it, and memvault checks —
// any line the person added that the answer dropped is put back under "Kept from your edits".
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Caller, MutationResult } from '../../messages/vault-ops.js';
import type { LlmClient } from '../scheduler/llm/client.js';
import type { LlmVars } from '../scheduler/templates/vars.js';
import { MEMORY_MD } from '../git-writer/dream-writes.js';
import { zonePages } from './coverage.js';
import { renderPrompt } from './prompt.js';

const KEPT = '## Kept from your edits';

export interface MemoryMdDeps {
  vault: string;
  dataDir: string;
  zones: readonly string[];
  llm: LlmClient;
  promptFile: string;
  maxLines: number;
  now(): number;
  today(): string;
  /** A privileged write of MEMORY.md through the git writer: one commit. */
  write(content: string, caller: Caller): Promise<MutationResult>;
  event(name: string, fields: Record<string, unknown>): void;
}

export type MemoryMdResult = { ok: true; commit: string | null; lines: number; kept: string[] } | { ok: false; reason: string };

async function text(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/** The `top` ids the recall log (`<data dir>/recall/*.jsonl`) returned most in the last `days` days. */
export async function recalled(
  dataDir: string,
  now: number,
  days = 30,
  top = 20,
): Promise<Array<{ id: string; count: number; query: string }>> {
  const dir = path.join(dataDir, 'recall');
  const from = new Date(now - days * 86_400_000).toISOString().slice(0, 10);
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(f) && f.slice(0, 10) >= from).sort();
  } catch {
    return [];
  }
  const by = new Map<string, { id: string; count: number; query: string }>();
  for (const f of files) {
    for (const line of ((await text(path.join(dir, f))) ?? '').split('\n')) {
      try {
        const e = JSON.parse(line) as { query?: string; results?: string[] };
        for (const id of new Set(e.results ?? [])) {
          const r = by.get(id) ?? { id, count: 0, query: '' };
          r.count++;
          r.query = String(e.query ?? '').slice(0, 120);
          by.set(id, r);
        }
      } catch {
        // an empty or cut line
      }
    }
  }
  return [...by.values()].sort((a, b) => b.count - a.count || a.id.localeCompare(b.id)).slice(0, top);
}

const lines = (s: string) => s.split('\n').map((l) => l.trimEnd());

/** The non-empty lines of `current` that memvault's last version did not have: the person's. */
export function personLines(current: string | null, last: string | null): string[] {
  if (current === null) return [];
  const ours = new Set(last === null ? [] : lines(last));
  return lines(current).filter((l) => l.trim() !== '' && l !== KEPT && !ours.has(l));
}

/** The model's answer, fences dropped, capped, with every person's line it dropped put back (never cut). */
export function finalText(answer: string, keep: readonly string[], maxLines: number): { text: string; kept: string[] } {
  const body = answer.replace(/^\s*```(?:markdown|md)?\s*\n/, '').replace(/\n```\s*$/, '');
  const have = new Set(lines(body));
  const missing = keep.filter((l) => !have.has(l));
  const tail = missing.length ? ['', KEPT, ...missing] : [];
  const room = Math.max(1, maxLines - tail.length);
  const head = lines(body).slice(0, room);
  while (head.length && head[head.length - 1] === '') head.pop();
  return { text: `${[...head, ...tail].join('\n')}\n`, kept: missing };
}

export async function regenerateMemoryMd(d: MemoryMdDeps, run: string): Promise<MemoryMdResult> {
  const lastFile = path.join(d.dataDir, 'dream', 'MEMORY.last.md');
  const current = await text(path.join(d.vault, MEMORY_MD));
  const last = await text(lastFile);
  const keep = personLines(current, last);
  const pages = (await zonePages(d.vault, d.zones)).map((p) => ({
    path: p.rel,
    title: /^# (.+)$/m.exec(p.text)?.[1]?.trim() ?? path.posix.basename(p.rel, '.md'),
  }));
  const prompt = renderPrompt(d.promptFile, {
    today: d.today(),
    pages,
    recalled: await recalled(d.dataDir, d.now()),
    current: current ?? '(none yet)',
    person_lines: keep,
    max_lines: d.maxLines,
  } satisfies LlmVars['dream_memory_md']);
  if (!prompt.ok) return { ok: false, reason: prompt.reason };
  const r = await d.llm.chat({ taskType: 'dream', messages: [{ role: 'user', content: prompt.text }], temperature: 0.2 });
  if (!r.ok) return { ok: false, reason: `llm_${r.reason}: ${r.message}` };
  if (!r.content?.trim()) return { ok: false, reason: 'llm_bad_output: an empty MEMORY.md' };
  const out = finalText(r.content, keep, d.maxLines);
  const w = await d.write(out.text, { agent: 'dream', reason: `dream run ${run} MEMORY.md`, skill: 'dream', run });
  if (!w.ok) return { ok: false, reason: `write_${w.reason}: ${w.message}` };
  await mkdir(path.dirname(lastFile), { recursive: true });
  await writeFile(lastFile, out.text);
  const lineCount = out.text.split('\n').length - 1;
  d.event('memory_md_regenerated', { run, lines: lineCount, person_lines: keep.length, put_back: out.kept.length, commit: w.commit });
  return { ok: true, commit: w.commit, lines: lineCount, kept: out.kept };
}
