// The fact log's appends, as the git writer makes them: today's day log (or the tombstones file) read, one line added,
// written back through the vault writer's privileged write — so the intent journal, the atomic write and one commit
// per change hold for the fact log too. Built inside the writer's serial section: two appends never read the same text.
import path from 'node:path';
import type { FactInput, VaultOp } from '../../messages/vault-ops.js';
import { appendToDayLog, factId, formatFactLine, localDay, logPosition, parseFactLine } from '../memory/fact-log.js';
import type { MemoryPaths } from '../memory/paths.js';
import { readIfPresent } from '../memory/read-if-present.js';

export interface RememberPlan {
  op: Extract<VaultOp, { op: 'write' }>;
  factId: string;
  line: number;
  at: string;
}

/** Why `fact` cannot be a fact-log line (e.g. nothing but #tags: it would not read back as a fact), or null. */
export function rememberProblem(fact: FactInput): string | null {
  const line = formatFactLine({ content: fact.content, category: fact.category ?? null, tags: fact.tags });
  return parseFactLine(line) === null
    ? 'the fact has no text of its own once its tags and category are set apart; say what is to be remembered'
    : null;
}

/** Today's log with `fact` appended under a `## HH:MM — who` header (local time of `now`). */
export async function planRemember(vault: string, paths: MemoryPaths, fact: FactInput, now: number): Promise<RememberPlan> {
  const { date, time } = localDay(now);
  const rel = paths.dayLog(date);
  const bytes = await readIfPresent(path.join(vault, rel));
  const line = formatFactLine({ content: fact.content, category: fact.category ?? null, tags: fact.tags });
  const appended = appendToDayLog(bytes?.toString('utf8') ?? null, date, time, fact.who, line);
  // the id of the line as it reads back, so the search result and the answer always agree
  const parsed = parseFactLine(line);
  if (parsed === null) throw new Error(rememberProblem(fact) ?? 'the fact line does not read back'); // checked before
  return {
    op: { op: 'write', path: rel, content: appended.text },
    factId: factId(date, parsed.content),
    line: appended.line,
    at: new Date(now).toISOString(),
  };
}

/**
 * The tombstones file with `lines` (JSON objects, one per line) appended, each stamped `through` today's log as it is
 * now (fact-log.ts, Tombstone): read here, in the serial section, so no remember lands between the count and the append.
 */
export async function planForget(
  vault: string,
  paths: MemoryPaths,
  lines: string[],
  now: number,
): Promise<Extract<VaultOp, { op: 'write' }>> {
  const bytes = await readIfPresent(path.join(vault, paths.tombstones));
  const text = bytes?.toString('utf8') ?? '';
  const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  const { date } = localDay(now);
  const through = logPosition(date, (await readIfPresent(path.join(vault, paths.dayLog(date))))?.toString('utf8') ?? null);
  const stamped = lines.map((l) => `${JSON.stringify({ ...(JSON.parse(l) as Record<string, unknown>), through })}\n`);
  return { op: 'write', path: paths.tombstones, content: `${base}${stamped.join('')}` };
}
