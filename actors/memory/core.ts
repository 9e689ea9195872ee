// The memory actor's logic, without a thread: journal records in, work for the index out. Chat messages gather in
// per-session stretches cut into turns (chat.ts), tasks and corrections become one document each, forgets remove
// what they name, and idle sessions are closed by a timer on an injected clock (tests advance a ManualClock).
import type { Clock, TimerHandle } from '../../supervisors/clock.js';
import type { JournalRecord } from '../../messages/episodes.js';
import { ChatSession, type ChatSettings } from './chat.js';
import { correctionDoc, taskDoc, taskHash } from './task-correction.js';
import type { DraftDoc, Work } from './work.js';

export interface CoreSettings {
  chat: ChatSettings;
  idleCloseMs: number;
  /** Statuses whose arrival always re-embeds a task (episodes.task.reindex_on_status). */
  terminal: ReadonlySet<string>;
  /** A session holding this many messages is closed (its turns final) so memory stays bounded. */
  maxSessionMessages: number;
}

export interface StoredTask {
  hash: string;
  status: string;
}

export interface CoreDeps {
  clock: Clock;
  /** Wall time, epoch ms (how long a replayed session has been idle). */
  wallNow(): number;
  /** What the index holds of a task, live (tasks not seen since this start). */
  storedTask(id: string): StoredTask | null;
  storedCorrection(id: string): boolean;
  /** The stretch (`segment`) and text hash of the live chat turn the index holds under `turnId`, or null. */
  storedTurn(turnId: string): { segment: number | null; hash: string } | null;
  /** Journals a session close, which comes back through apply(); null where the journal is read-only (a reindex build). */
  close: ((session: string, why: 'idle' | 'size') => void) | null;
  work(w: Work, rec: { seq: number; rt: number }): void;
}

export interface OpenStretch {
  epoch: number;
  emitted: ReadonlySet<string>;
  has(messageId: string): boolean;
  /** The message ids of one of its turns (by source id), or null. */
  turnMessages(turnId: string): string[] | null;
}

/** Episode ids forgotten in the journal, with the seq of the forget: records of them before it are skipped. */
export type ForgetMap = ReadonlyMap<string, number>;

/** A stretch of a session whose turns the index may hold from before a restart: checked after a replay. */
export interface Stretch {
  session: string;
  epoch: number;
  ids: ReadonlySet<string>;
}

const TASKS_REMEMBERED = 10_000;

/** A closed stretch whose turns may not all be in the index yet: its close record's seq, and its turns (id → hash). */
interface Closed {
  epoch: number;
  seq: number;
  turns: ReadonlyMap<string, string>;
}

export class MemoryCore {
  readonly #s: CoreSettings;
  readonly #d: CoreDeps;
  readonly #sessions = new Map<string, ChatSession>();
  readonly #timers = new Map<string, TimerHandle>();
  readonly #tasks = new Map<string, StoredTask | null>();
  readonly #corrections = new Set<string>();
  /** Closed stretches by session, until the index holds their turns (settled): the ids they took. */
  readonly #closed = new Map<string, Closed[]>();
  #closedInReplay: Stretch[] = [];
  #replaying = false;
  #appliedSeq = 0;
  #appliedRt = 0;

  constructor(settings: CoreSettings, deps: CoreDeps) {
    this.#s = settings;
    this.#d = deps;
  }

  /** The last journal record applied (seq, receipt time); 0 before any. */
  get applied(): { seq: number; rt: number } {
    return { seq: this.#appliedSeq, rt: this.#appliedRt };
  }

  /** The earliest journal record an open session still needs after a restart (its first message), or null. */
  openLow(): { seq: number; rt: number } | null {
    let low: { seq: number; rt: number } | null = null;
    for (const s of this.#sessions.values()) if (!low || s.epoch < low.seq) low = { seq: s.epoch, rt: s.epochRt };
    return low;
  }

  get openSessions(): number {
    return this.#sessions.size;
  }

  /** The open stretch of `session`: its epoch and the turns handed to the index, or null when none is open. */
  session(session: string): OpenStretch | null {
    const s = this.#sessions.get(session);
    if (!s) return null;
    return {
      epoch: s.epoch,
      emitted: new Set(s.emitted.keys()),
      has: (m) => s.has(m),
      turnMessages: (turn) => {
        const doc = this.#turns(s).find((d) => d.sourceId === turn);
        return doc ? (doc.metadata['messages'] as Array<{ id: string }>).map((m) => m.id) : null;
      },
    };
  }

  /** Replay starts at `seq` (the index's checkpoint): what comes before it is in the index already. */
  startAt(seq: number, rt: number): void {
    this.#appliedSeq = Math.max(0, seq - 1);
    this.#appliedRt = rt;
  }

  /** Starts a replay: no idle timers; closes are remembered so their turns can be checked against the index after. */
  beginReplay(): void {
    this.#replaying = true;
    this.#closedInReplay = [];
    for (const t of this.#timers.values()) this.#d.clock.clearTimeout(t);
    this.#timers.clear();
  }

  /** Ends a replay: arms idle timers from each session's last receipt, and returns the stretches to check. */
  endReplay(): Stretch[] {
    this.#replaying = false;
    const out = [
      ...this.#closedInReplay,
      ...[...this.#sessions.values()].map((s) => ({ session: s.id, epoch: s.epoch, ids: new Set(s.emitted.keys()) })),
    ];
    this.#closedInReplay = [];
    for (const s of this.#sessions.values()) this.#arm(s, Math.max(0, this.#s.idleCloseMs - (this.#d.wallNow() - s.lastRt)));
    return out;
  }

  /** Forgets everything held (a rescan replays from the index's checkpoint). */
  reset(): void {
    for (const t of this.#timers.values()) this.#d.clock.clearTimeout(t);
    this.#timers.clear();
    this.#sessions.clear();
    this.#closed.clear();
    this.#tasks.clear();
    this.#corrections.clear();
    this.#appliedSeq = 0;
    this.#appliedRt = 0;
  }

  apply(records: readonly JournalRecord[], skip?: ForgetMap): void {
    for (const r of records) {
      if (r.seq <= this.#appliedSeq) continue; // already applied (a replay overlapping what is held)
      this.#apply(r, skip);
      this.#appliedSeq = r.seq;
      this.#appliedRt = r.rt;
    }
  }

  #apply(r: JournalRecord, skip: ForgetMap | undefined): void {
    const forgotten = (...ids: string[]) => ids.some((id) => (skip?.get(id) ?? 0) > r.seq);
    switch (r.k) {
      case 'ep': {
        const ep = r.ep;
        switch (ep.type) {
          case 'chat': {
            if (forgotten(`chat:${ep.session_id}:${ep.message_id}`, `chat:${ep.session_id}`)) return;
            let s = this.#sessions.get(ep.session_id);
            if (!s) {
              s = new ChatSession(ep.session_id, r.seq, r.rt);
              this.#sessions.set(s.id, s);
            }
            s.put({ seq: r.seq, id: ep.message_id, role: ep.role, text: ep.text, atMs: r.at, rt: r.rt, agent: r.agent });
            this.#project(s, r);
            if (s.size >= this.#s.maxSessionMessages) this.#d.close?.(s.id, 'size');
            else if (!this.#replaying) this.#arm(s, this.#s.idleCloseMs);
            return;
          }
          case 'task': {
            if (forgotten(`task:${ep.task_id}`)) return;
            const prev = this.#task(ep.task_id);
            if (ep.event === 'delete') {
              this.#d.work({ op: 'soft_delete', key: { sourceType: 'task', sourceId: ep.task_id } }, r);
              this.#rememberTask(ep.task_id, null);
              return;
            }
            const doc = taskDoc(ep, r.at, r.rt, r.agent, this.#s.chat.tokens, this.#s.chat.maxTokens);
            // entering a terminal status always computes a fresh vector, whatever the text (a stored one may be stale)
            const fresh = this.#s.terminal.has(ep.status) && (!prev || !this.#s.terminal.has(prev.status));
            this.#d.work({ op: 'upsert', doc, fresh }, r);
            this.#rememberTask(ep.task_id, { hash: taskHash(ep), status: ep.status });
            return;
          }
          case 'correction': {
            if (forgotten(`correction:${ep.correction_id}`)) return;
            // the same correction twice is a no-op: the first word stands
            if (this.#corrections.has(ep.correction_id) || this.#d.storedCorrection(ep.correction_id)) return;
            this.#corrections.add(ep.correction_id);
            this.#d.work({ op: 'upsert', doc: correctionDoc(ep, r.at, r.rt, r.agent, this.#s.chat.tokens), fresh: false }, r);
            return;
          }
        }
        return;
      }
      case 'forget':
        this.#forget(r);
        return;
      case 'close':
        this.#close(r.session, r.seq);
        return;
    }
  }

  #forget(r: Extract<JournalRecord, { k: 'forget' }>): void {
    const [kind, ...rest] = r.id.split(':');
    const id = rest.join(':');
    switch (kind) {
      case 'chat': {
        const colon = id.indexOf(':');
        const session = colon < 0 ? id : id.slice(0, colon);
        const message = colon < 0 ? null : id.slice(colon + 1);
        const s = this.#sessions.get(session);
        if (s) {
          if (message === null) {
            for (const key of s.emitted.keys()) this.#d.work({ op: 'delete', key: { sourceType: 'chat', sourceId: key } }, r);
            this.#drop(session);
          } else if (s.remove(message)) this.#project(s, r);
        }
        if (message === null) this.#closed.delete(session); // its turns go: a later stretch takes nothing of theirs
        // earlier stretches of the session are in the index only: their turns are read back and rebuilt without it
        this.#d.work({ op: 'forget_chat', session, messageIds: message === null ? ['*'] : [message] }, r);
        return;
      }
      case 'task':
        this.#d.work({ op: 'delete', key: { sourceType: 'task', sourceId: id } }, r);
        this.#rememberTask(id, null);
        return;
      case 'correction':
        this.#d.work({ op: 'delete', key: { sourceType: 'correction', sourceId: id } }, r);
        this.#corrections.delete(id);
        return;
    }
  }

  #close(session: string, seq: number): void {
    const s = this.#sessions.get(session);
    if (!s) return;
    if (this.#replaying) this.#closedInReplay.push({ session, epoch: s.epoch, ids: new Set(s.emitted.keys()) });
    const closed = this.#closed.get(session) ?? [];
    closed.push({ epoch: s.epoch, seq, turns: new Map(s.emitted) });
    this.#closed.set(session, closed);
    this.#drop(session);
  }

  /** Everything journaled before `seq` is in the index: closed stretches up to there no longer need remembering. */
  settled(seq: number): void {
    for (const [session, closed] of this.#closed) {
      const rest = closed.filter((c) => c.seq >= seq);
      if (rest.length === 0) this.#closed.delete(session);
      else if (rest.length < closed.length) this.#closed.set(session, rest);
    }
  }

  /**
   * The stretch's turns, none under an id another stretch of its session holds (chat.ts placeTurn): a closed stretch
   * not yet settled answers for itself, the index for the rest (a row of the stretch itself, e.g. from before a
   * restart, or from before turns named their stretch, is its own).
   */
  #turns(s: ChatSession): DraftDoc[] {
    const closed = (this.#closed.get(s.id) ?? []).filter((c) => c.epoch !== s.epoch);
    const unsettled = new Set(closed.map((c) => c.epoch));
    return s.turns(this.#s.chat, (id) => {
      for (const c of closed) {
        const h = c.turns.get(id);
        if (h !== undefined) return h;
      }
      const row = this.#d.storedTurn(id);
      return row && row.segment !== null && row.segment !== s.epoch && !unsettled.has(row.segment) ? row.hash : null;
    });
  }

  #drop(session: string): void {
    const t = this.#timers.get(session);
    if (t) this.#d.clock.clearTimeout(t);
    this.#timers.delete(session);
    this.#sessions.delete(session);
  }

  /** The session's turns now, against what the index was last given: upsert what changed, remove what is gone. */
  #project(s: ChatSession, r: { seq: number; rt: number }): void {
    const turns = this.#turns(s);
    const now = new Set<string>();
    for (const doc of turns) {
      now.add(doc.sourceId);
      if (s.shared(doc.sourceId) || s.emitted.get(doc.sourceId) === doc.contentHash) continue;
      s.emitted.set(doc.sourceId, doc.contentHash);
      this.#d.work({ op: 'upsert', doc, fresh: false }, r);
    }
    for (const id of [...s.emitted.keys()]) {
      if (now.has(id)) continue;
      s.emitted.delete(id);
      this.#d.work({ op: 'delete', key: { sourceType: 'chat', sourceId: id } }, r);
    }
  }

  #arm(s: ChatSession, ms: number): void {
    if (!this.#d.close) return;
    const old = this.#timers.get(s.id);
    if (old) this.#d.clock.clearTimeout(old);
    const close = this.#d.close;
    this.#timers.set(
      s.id,
      this.#d.clock.setTimeout(() => {
        this.#timers.delete(s.id);
        if (this.#sessions.get(s.id) === s) close(s.id, 'idle');
      }, ms),
    );
  }

  #task(id: string): StoredTask | null {
    if (this.#tasks.has(id)) return this.#tasks.get(id) ?? null;
    return this.#d.storedTask(id);
  }

  #rememberTask(id: string, t: StoredTask | null): void {
    this.#tasks.delete(id);
    this.#tasks.set(id, t);
    if (this.#tasks.size > TASKS_REMEMBERED) this.#tasks.delete(this.#tasks.keys().next().value!);
  }

  /** Stops every timer (the actor is going away). */
  stop(): void {
    for (const t of this.#timers.values()) this.#d.clock.clearTimeout(t);
    this.#timers.clear();
  }
}
