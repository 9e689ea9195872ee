// What happened since the nightly extraction's last run, read-only: the episode journal's records after the cursor
// (chat messages grouped by session, tasks — corrections and forgotten episodes left out) and the fact log's facts
// after it (the extraction's own memories left out: they are what it wrote). The cursor it returns is where the
// reading stopped, taken before the LLM call, so what arrives meanwhile is read next time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JournalRecord } from '../../../messages/episodes.js';
import { episodeId } from '../../../messages/episodes.js';
import { LogDays } from '../../dream/log-days.js';
import { localDay } from '../../memory/fact-log.js';
import { listFiles, parseLine } from '../../memory/journal.js';
import type { MemoryPaths } from '../../memory/paths.js';
import { addDays, localDate, localTime } from '../dates.js';
import type { BudgetItem } from './budget.js';
import type { SleepCursor } from './state.js';

/** The `## HH:MM — who` the extraction's memories are logged under: it never reads its own lines back as news. */
export const SLEEP_WHO = 'memvault-sleep';
/** A first run (no cursor) reads this far back, not the whole history. */
export const FIRST_LOOKBACK_MS = 24 * 3_600_000;

export interface Material {
  items: BudgetItem[];
  /** Where the next run starts. */
  cursor: SleepCursor;
  /** Normalised texts of every fact in the days read (the extraction's own included): a memory already logged is skipped. */
  logged: Set<string>;
  counts: { sessions: number; messages: number; tasks: number; facts: number };
}

export interface MaterialDeps {
  dataDir: string;
  vault: string;
  memory: MemoryPaths;
  tz: string;
  now: number;
}

interface Msg {
  seq: number;
  at: number;
  role: string;
  text: string;
}

/** The journal's records after the cursor (files before the cursor's are not opened), and the last one read. */
function journalSince(d: MaterialDeps, cursor: SleepCursor['episodes']): { records: JournalRecord[]; last: SleepCursor['episodes'] } {
  const dir = path.join(d.dataDir, 'episodes');
  const names = listFiles(dir);
  // a first run starts at the files of the look-back window (named by UTC day of receipt)
  const firstFile = cursor?.file ?? `${new Date(d.now - FIRST_LOOKBACK_MS - 86_400_000).toISOString().slice(0, 10)}.jsonl`;
  const records: JournalRecord[] = [];
  let last = cursor;
  for (const f of names) {
    if (f < firstFile) continue;
    let text: string;
    try {
      text = readFileSync(path.join(dir, f), 'utf8');
    } catch {
      continue; // dropped by retention meanwhile
    }
    // a torn last line (a write under way) fails to parse and is read next time: the cursor stops before it
    for (const line of text.split('\n')) {
      const r = parseLine(line);
      if (!r || (cursor && r.seq <= cursor.seq)) continue;
      records.push(r);
      if (!last || r.seq > last.seq) last = { seq: r.seq, file: f };
    }
  }
  return { records, last };
}

function taskText(ep: Extract<JournalRecord, { k: 'ep' }>['ep'] & { type: 'task' }): string {
  const meta = [
    ep.status,
    ep.domain,
    ep.deadline ? `due ${ep.deadline}` : null,
    ep.priority !== undefined ? `priority ${ep.priority}` : null,
  ]
    .filter((x) => x)
    .join(', ');
  return [`${ep.title} (${meta})`, ep.description, ep.notes].filter((x) => x && x.trim() !== '').join('\n');
}

export async function readMaterial(d: MaterialDeps, cursor: SleepCursor): Promise<Material> {
  const since = cursor.episodes ? Number.NEGATIVE_INFINITY : d.now - FIRST_LOOKBACK_MS;
  const { records, last } = journalSince(d, cursor.episodes);
  const forgotten = new Set(records.flatMap((r) => (r.k === 'forget' ? [r.id] : [])));
  const sessions = new Map<string, Map<string, Msg>>();
  const tasks = new Map<string, { at: number; text: string }>();
  for (const r of records) {
    if (r.k !== 'ep' || r.at < since || forgotten.has(episodeId(r.ep))) continue;
    const ep = r.ep;
    if (ep.type === 'chat') {
      if (ep.role !== 'user' && ep.role !== 'assistant') continue;
      const s = sessions.get(ep.session_id) ?? new Map<string, Msg>();
      s.set(ep.message_id, { seq: r.seq, at: r.at, role: ep.role, text: ep.text.trim() });
      sessions.set(ep.session_id, s);
    } else if (ep.type === 'task') {
      if (ep.event === 'delete') tasks.delete(ep.task_id);
      else tasks.set(ep.task_id, { at: r.at, text: taskText(ep) });
    }
  }
  const items: BudgetItem[] = [];
  const when = (ms: number) => `${localDate(ms, d.tz)} ${localTime(ms, d.tz)}`;
  const chats = [...sessions].map(([id, m]) => ({ id, msgs: [...m.values()].sort((a, b) => a.at - b.at || a.seq - b.seq) }));
  chats.sort((a, b) => a.msgs[0]!.at - b.msgs[0]!.at);
  let messages = 0;
  for (const c of chats) {
    messages += c.msgs.length;
    items.push({
      interactive: true,
      label: `Conversation ${c.id} (${when(c.msgs[0]!.at)} – ${when(c.msgs.at(-1)!.at)})`,
      text: c.msgs.map((m) => `${m.role}: ${m.text}`).join('\n'),
    });
  }
  for (const [id, t] of [...tasks].sort((a, b) => a[1].at - b[1].at))
    items.push({ interactive: false, label: `Task ${id} (${when(t.at)})`, text: t.text });

  // the fact log: days from the cursor's day (or the look-back's) to the newest, facts not seen there yet
  const days = new LogDays(d.vault, d.memory);
  const fromDay = cursor.facts?.date ?? localDay(d.now - FIRST_LOOKBACK_MS).date;
  const seen = new Set(cursor.facts?.date === fromDay ? cursor.facts.ids : []);
  const logged = new Set<string>();
  let facts = 0;
  let factCursor = cursor.facts;
  for (const { date } of await days.days(addDays(fromDay, -1))) {
    const all = await days.factsOf(date);
    for (const f of all) logged.add(f.norm);
    const fresh = all.filter((f) => !(date === fromDay && seen.has(f.factId)) && f.who !== SLEEP_WHO);
    factCursor = { date, ids: all.map((f) => f.factId) };
    if (date === fromDay) factCursor.ids = [...new Set([...seen, ...factCursor.ids])];
    if (fresh.length === 0) continue;
    facts += fresh.length;
    items.push({
      interactive: false,
      label: `Fact log ${date}`,
      text: fresh.map((f) => `- ${f.time ?? ''} ${f.category ? `[${f.category}] ` : ''}${f.content}`.replace(/- {2}/, '- ')).join('\n'),
    });
  }
  return {
    items,
    cursor: { episodes: last, facts: factCursor },
    logged,
    counts: { sessions: chats.length, messages, tasks: tasks.size, facts },
  };
}
