// What the memory actor reads back from the index (its own read-only connection): the journal checkpoint, the turns
// of chat stretches no longer held in memory (a forget rebuilds them, a replay checks them), and what an episode id
// names when it is forgotten.
import { CHECKPOINT_KEY, type JournalCheckpoint } from '../../messages/episodes.js';
import type { IndexReader } from '../store-writer/index-reader.js';
import { placeTurn, turnWithout, type ChatSettings, type TurnMessage } from './chat.js';
import type { MemoryCore, Stretch } from './core.js';
import type { Work } from './work.js';

export function readCheckpoint(reader: IndexReader): JournalCheckpoint | null {
  const v = reader.meta(CHECKPOINT_KEY);
  if (v === null) return null;
  try {
    const c = JSON.parse(v) as JournalCheckpoint;
    return Number.isSafeInteger(c.seq) && typeof c.file === 'string' ? c : null;
  } catch {
    return null;
  }
}

interface TurnRow {
  sourceId: string;
  hash: string;
  segment: number;
  agent: string;
  messages: TurnMessage[];
}

function turnsOf(reader: IndexReader, session: string): TurnRow[] {
  return reader
    .documentsWithPrefix('chat', `${session}:`)
    .filter((d) => d.metadata['session_id'] === session)
    .map((d) => ({
      sourceId: d.sourceId,
      hash: d.contentHash,
      segment: Number(d.metadata['segment']),
      agent: String(d.metadata['agent'] ?? ''),
      messages: (d.metadata['messages'] ?? []) as TurnMessage[],
    }));
}

/**
 * Turns of closed stretches holding forgotten messages, rebuilt without them (`*`: every turn of the session goes).
 * The open stretch is the core's to change; its turns are left alone here.
 */
export function forgetChatWork(
  reader: IndexReader,
  core: MemoryCore,
  chat: ChatSettings,
  items: Array<{ session: string; messageIds: string[] }>,
): Work[] {
  const out: Work[] = [];
  // one set per session: each forget read back alone (a turn's messages, forgotten at once) rebuilt the turn from the
  // same row with the others' messages still in it, and those came back
  const sessions = new Map<string, Set<string>>();
  for (const { session, messageIds } of items) sessions.set(session, new Set([...(sessions.get(session) ?? []), ...messageIds]));
  for (const [session, drop] of sessions) {
    const open = core.session(session)?.epoch;
    const turns = turnsOf(reader, session);
    // the turns each stretch holds: a rebuilt turn takes no id another stretch holds (earlier stretches choose first)
    const held = new Map(turns.map((t) => [t.sourceId, { segment: t.segment, hash: t.hash }]));
    for (const t of turns.sort((a, b) => a.segment - b.segment)) {
      if (t.segment === open) continue;
      if (!drop.has('*') && !t.messages.some((m) => drop.has(m.id))) continue;
      let rebuilt = drop.has('*')
        ? null
        : turnWithout(session, t.segment, reader.chunkTexts('chat', t.sourceId).join(''), t.messages, drop, t.agent, chat);
      if (rebuilt) {
        const place = placeTurn(rebuilt.sourceId, rebuilt.contentHash, t.segment, (id) => {
          const h = id === t.sourceId ? undefined : held.get(id);
          return h && h.segment !== t.segment ? h.hash : null;
        });
        // another stretch holds the rest word for word: this turn goes, the text stays findable there
        rebuilt = place.shared ? null : place.id === rebuilt.sourceId ? rebuilt : { ...rebuilt, sourceId: place.id };
      }
      if (rebuilt?.sourceId !== t.sourceId) {
        out.push({ op: 'delete', key: { sourceType: 'chat', sourceId: t.sourceId } });
        held.delete(t.sourceId);
      }
      if (rebuilt) {
        out.push({ op: 'upsert', doc: rebuilt, fresh: false });
        held.set(rebuilt.sourceId, { segment: t.segment, hash: rebuilt.contentHash });
      }
    }
  }
  return out;
}

/**
 * After a replay: turns the index holds for a replayed stretch that the replay did not produce (a growing turn's
 * earlier form, sent before a crash under another id) are removed. Open stretches are compared with what the core
 * holds now, closed ones with what they held when they closed.
 */
export function staleTurnWork(reader: IndexReader, core: MemoryCore, stretches: Stretch[]): Work[] {
  const out: Work[] = [];
  for (const st of stretches) {
    const live = core.session(st.session);
    const keep = live && live.epoch === st.epoch ? live.emitted : st.ids;
    for (const t of turnsOf(reader, st.session))
      if (t.segment === st.epoch && !keep.has(t.sourceId)) out.push({ op: 'delete', key: { sourceType: 'chat', sourceId: t.sourceId } });
  }
  return out;
}

/**
 * The journal ids an episode id names when it is forgotten: a message, or every message of a turn (`chat:<turn id>`
 * as results carry it), or a whole session (`chat:<session>`), a task, a correction. Empty: nothing by that id, in the
 * index, the open session or the episodes accepted and not yet applied (`pending`).
 */
export function resolveForget(reader: IndexReader, core: MemoryCore, id: string, pending: (id: string) => boolean): string[] {
  const colon = id.indexOf(':');
  const kind = id.slice(0, colon);
  const rest = id.slice(colon + 1);
  if (colon < 0 || rest === '') return [];
  if (kind === 'task' || kind === 'correction') {
    return reader.document(kind, rest) !== null || pending(id) ? [id] : [];
  }
  if (kind !== 'chat') return [];
  const c = rest.indexOf(':');
  const session = c < 0 ? rest : rest.slice(0, c);
  const open = core.session(session);
  const turns = turnsOf(reader, session);
  if (c < 0) return open || turns.length || pending(id) ? [`chat:${session}`] : [];
  const part = rest.slice(c + 1);
  if (open?.has(part) || turns.some((t) => t.messages.some((m) => m.id === part)) || pending(id)) return [`chat:${session}:${part}`];
  const held = open?.turnMessages(rest) ?? turns.find((t) => t.sourceId === rest)?.messages.map((m) => m.id);
  return held ? held.map((m) => `chat:${session}:${m}`) : [];
}
