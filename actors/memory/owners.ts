// Who recorded each episode, for the memory actor's ownership checks: the episodes accepted but maybe not in the index
// yet (a ledger kept from the journal's records, the newest record of an id winning), then the index for the rest.
// An append is checked and entered here in one synchronous step, so two agents racing for one new id cannot both win.
import { episodeId, type Episode, type JournalRecord } from '../../messages/episodes.js';
import type { IndexReader } from '../store-writer/index-reader.js';

/**
 * The sender of each message of a session's indexed turns (a turn's own `agent` is only its last message's); a row
 * from before messages carried their sender stands for its whole turn with the turn's agent (`id` null).
 */
export function sessionSenders(reader: IndexReader, session: string): Array<{ id: string | null; agent: string }> {
  return reader
    .documentsWithPrefix('chat', `${session}:`)
    .filter((d) => d.metadata['session_id'] === session)
    .flatMap((d): Array<{ id: string | null; agent: string }> => {
      const turn = String(d.metadata['agent'] ?? '');
      const messages = (d.metadata['messages'] ?? []) as Array<{ id: string; agent?: string }>;
      return messages.length > 0 ? messages.map((m) => ({ id: m.id, agent: m.agent ?? turn })) : [{ id: null, agent: turn }];
    });
}

/** `[before, after]` the first ':' (one element when there is none). */
function splitOnce(s: string): string[] {
  const c = s.indexOf(':');
  return c < 0 ? [s] : [s.slice(0, c), s.slice(c + 1)];
}

/** `chat:<session>` (a session id holds no ':'): a forget of the whole session. */
function isSession(id: string): boolean {
  return id.startsWith('chat:') && id.indexOf(':', 5) < 0;
}

/** Whether forgetting `forgotten` removes the episode `id`. */
function names(forgotten: string, id: string): boolean {
  return id === forgotten || (isSession(forgotten) && id.startsWith(`${forgotten}:`));
}

interface Entry {
  agent: string;
  seq: number;
}

/**
 * The recorder of every episode journaled from the index's checkpoint on that the index cannot answer for, by journal
 * id. An entry goes once the index answers alike for its episode (settled), or holds its chat session's close (the
 * messages the index does not keep — a role or a length it leaves out — are free then), or below the checkpoint. A
 * chat session kept open holds the checkpoint at its first message: the ledger still keeps only what the index cannot
 * answer for yet.
 */
export class EpisodeOwners {
  readonly #reader: () => IndexReader;
  /** In seq order, mostly (a replay enters older records after newer ones: an entry is only ever replaced by a newer one). */
  readonly #recent = new Map<string, Entry>();
  /** Each chat session's latest close record seen: its messages are free once the index holds what came before it. */
  readonly #closes = new Map<string, number>();
  /** Entries of records below this were compared with the index once already (settled). */
  #checkedTo = 0;

  constructor(reader: () => IndexReader) {
    this.#reader = reader;
  }

  get size(): number {
    return this.#recent.size;
  }

  /** Follows a journal record: an episode's id is its agent's from `seq` on, a forget frees the ids it names. */
  note(r: JournalRecord): void {
    if (r.k === 'ep') {
      this.#set(episodeId(r.ep), { agent: r.agent, seq: r.seq });
      this.#checkedTo = Math.min(this.#checkedTo, r.seq); // a replay's records: compared with the index again
    } else if (r.k === 'close') this.#closes.set(r.session, Math.max(this.#closes.get(r.session) ?? 0, r.seq));
    else if (r.k === 'forget') {
      for (const [id, e] of this.#recent) if (names(r.id, id) && e.seq < r.seq) this.#recent.delete(id);
    }
  }

  /** Whether an episode journaled from the checkpoint on has `id` (with `chat:<session>`: any message of the session). */
  holds(id: string): boolean {
    if (this.#recent.has(id)) return true;
    if (!isSession(id)) return false;
    for (const k of this.#recent.keys()) if (names(id, k)) return true;
    return false;
  }

  /**
   * Who alone recorded what forgetting `id` removes, indexed or not: a task's or correction's agent; for a chat
   * message, turn or session, the one agent of all the session's messages (a session several agents spoke in has
   * none, so only an admin forgets in it). Null when there is none.
   */
  soleRecorder(id: string): string | null {
    const [kind = '', rest = ''] = splitOnce(id);
    if (kind === 'task' || kind === 'correction') {
      const held = this.#recent.get(id);
      if (held) return held.agent;
      const a = this.#reader().document(kind, rest)?.metadata['agent'];
      return typeof a === 'string' ? a : null;
    }
    if (kind !== 'chat') return null;
    const session = splitOnce(rest)[0] ?? rest;
    const agents = new Set(sessionSenders(this.#reader(), session).map((s) => s.agent));
    for (const [k, e] of this.#recent) if (names(`chat:${session}`, k)) agents.add(e.agent);
    return agents.size === 1 ? [...agents][0]! || null : null;
  }

  /** Takes back what an append entered when its journal write failed (unless a later record replaced it meanwhile). */
  unnote(ep: Episode, seq: number): void {
    const id = episodeId(ep);
    if (this.#recent.get(id)?.seq === seq) this.#recent.delete(id);
  }

  /** Drops the entries of records before `seq` (the index's checkpoint): the index answers for them. */
  dropBefore(seq: number): void {
    for (const [id, e] of this.#recent) {
      if (e.seq >= seq) break;
      this.#recent.delete(id);
    }
    for (const [session, closed] of this.#closes) if (closed < seq) this.#closes.delete(session);
  }

  /**
   * Every record before `through` is in the index (its work is applied): the entries of those records the index
   * now answers for alike go (each compared once), and so do the messages of a session closed before it.
   */
  settled(through: number): void {
    const free = new Map<string, number>();
    for (const [session, closed] of this.#closes)
      if (closed < through) {
        free.set(session, closed);
        this.#closes.delete(session);
      }
    if (through <= this.#checkedTo && free.size === 0) return;
    const reader = this.#reader();
    const sessions = new Map<string, Map<string, string>>();
    for (const [id, e] of this.#recent) {
      if (e.seq >= through) continue;
      const [kind = '', rest = ''] = splitOnce(id);
      const closed = kind === 'chat' ? free.get(splitOnce(rest)[0] ?? '') : undefined;
      if ((closed !== undefined && e.seq < closed) || (e.seq >= this.#checkedTo && this.#indexed(id, reader, sessions) === e.agent))
        this.#recent.delete(id);
    }
    this.#checkedTo = Math.max(this.#checkedTo, through);
  }

  /** Who the index says recorded the episode `id` (a session's indexed senders read once per call), or null. */
  #indexed(id: string, reader: IndexReader, sessions: Map<string, Map<string, string>>): string | null {
    const [kind = '', rest = ''] = splitOnce(id);
    if (kind === 'task' || kind === 'correction') {
      const a = reader.document(kind, rest)?.metadata['agent'];
      return typeof a === 'string' ? a : null;
    }
    if (kind !== 'chat') return null;
    const [session = '', message = ''] = splitOnce(rest);
    return this.#senders(reader, session, sessions).get(message) ?? null;
  }

  /** The sender of each indexed message of `session` (the last turn naming it wins), read once per `sessions`. */
  #senders(reader: IndexReader, session: string, sessions: Map<string, Map<string, string>>): Map<string, string> {
    let senders = sessions.get(session);
    if (!senders) {
      senders = new Map();
      for (const s of sessionSenders(reader, session)) if (s.id !== null) senders.set(s.id, s.agent);
      sessions.set(session, senders);
    }
    return senders;
  }

  /**
   * Enters `eps`, about to be journaled as `agent`'s with seqs from `firstSeq` on, in order; with `guard`, an item that
   * would replace or delete another agent's task or chat message (the same id) is left out. Answers the positions
   * left out; the rest get their seqs in order. One synchronous step: a later append sees these entries.
   */
  admit(eps: readonly Episode[], agent: string, firstSeq: number, guard: boolean): number[] {
    const refused: number[] = [];
    const senders = new Map<string, Map<string, string>>();
    let seq = firstSeq;
    eps.forEach((ep, i) => {
      const owner = guard ? this.#ownerOf(ep, senders) : null;
      if (owner !== null && owner !== agent) refused.push(i);
      else this.#set(episodeId(ep), { agent, seq: seq++ });
    });
    return refused;
  }

  /**
   * Who recorded the episode `ep` would replace or delete (the same task or chat message id), null when no one has;
   * a session's indexed senders are read once per append. A correction is never replaced (the same correction_id
   * again is a no-op), so it has no owner to ask.
   */
  #ownerOf(ep: Episode, sessions: Map<string, Map<string, string>>): string | null {
    if (ep.type === 'correction') return null;
    const held = this.#recent.get(episodeId(ep));
    if (held) return held.agent;
    const reader = this.#reader();
    if (ep.type === 'task') {
      const a = reader.document('task', ep.task_id)?.metadata['agent'];
      return typeof a === 'string' ? a : null;
    }
    return this.#senders(reader, ep.session_id, sessions).get(ep.message_id) ?? null;
  }

  #set(id: string, e: Entry): void {
    const old = this.#recent.get(id);
    if (old && old.seq > e.seq) return;
    this.#recent.delete(id); // to the end: the map stays in seq order for dropBefore
    this.#recent.set(id, e);
  }
}
