// Chat sessions into turn documents. A session's messages are kept in the order they were sent (`at`, then journal
// order) and cut into turns: a turn ends where the role flips from assistant back to user, or where the next message
// would overflow the model's window. The cut is a function of the messages alone, so a late message, a replay or a
// forgotten message gives the same turns as if it had all come in order.
import type { ChatRole } from '../../messages/episodes.js';
import type { TokenCounter } from '../../messages/embedding.js';
import { sha256Hex } from '../../messages/hash.js';
import { chunksOf } from './split.js';
import type { DraftDoc } from './work.js';

export interface ChatSettings {
  indexRoles: ReadonlySet<ChatRole>;
  minChars: number;
  /** True when the text holds one of the configured task verbs (short messages with one are kept). */
  hasTaskVerb: (text: string) => boolean;
  maxTokens: number;
  tokens: TokenCounter;
}

export interface ChatMessage {
  seq: number;
  id: string;
  role: ChatRole;
  text: string;
  atMs: number;
  /** Wall time received. */
  rt: number;
  agent: string;
}

const ROLE_NAMES: Record<ChatRole, string> = { user: 'User', assistant: 'Assistant', system: 'System', tool: 'Tool' };

/**
 * Every form of each verb a token may take: the verb, -s/-es, -ed/-d, -ing, with the final e dropped before -ing
 * (schedule → scheduling) and a final consonant doubled after a short vowel (ship → shipped). Matched against whole
 * tokens, so `callous` and `callable` never match `call`.
 */
export function taskVerbMatcher(verbs: readonly string[]): (text: string) => boolean {
  const forms = new Set<string>();
  for (const raw of verbs) {
    const v = raw.toLowerCase();
    forms.add(v);
    forms.add(/(s|x|z|ch|sh)$/.test(v) ? `${v}es` : `${v}s`);
    if (v.endsWith('e')) {
      forms.add(`${v}d`);
      forms.add(`${v.slice(0, -1)}ing`);
    } else {
      forms.add(`${v}ed`);
      forms.add(`${v}ing`);
      if (/[^aeiou][aeiou][bdgklmnprt]$/.test(v) && v.length <= 4) {
        forms.add(`${v}${v.at(-1)}ed`);
        forms.add(`${v}${v.at(-1)}ing`);
      }
    }
  }
  return (text) => {
    for (const t of text.toLowerCase().match(/[\p{L}']+/gu) ?? []) if (forms.has(t)) return true;
    return false;
  };
}

/** Whether a message is indexed at all: a role we index, and long enough or naming a task ("call Tom"). */
export function keepMessage(role: ChatRole, text: string, s: Pick<ChatSettings, 'indexRoles' | 'minChars' | 'hasTaskVerb'>): boolean {
  if (!s.indexRoles.has(role)) return false;
  const t = text.trim();
  if (t === '') return false;
  return t.length >= s.minChars || s.hasTaskVerb(t);
}

interface Line {
  m: ChatMessage;
  line: string;
  tokens: number;
  /** keepMessage, decided once per message. */
  kept: boolean;
}

/** One open stretch of a chat session (from its first message, or its last close, until the next close). */
export class ChatSession {
  readonly id: string;
  /** The journal seq of the first message of this stretch: its turns carry it, so a replay finds them again. */
  readonly epoch: number;
  /** When the epoch's record was received: its journal file is that day's. */
  readonly epochRt: number;
  /** Every message received (kept or not), by id. */
  readonly #byId = new Map<string, ChatMessage>();
  /** Turn documents as last handed to the index: source id → content hash. */
  readonly emitted = new Map<string, string>();
  lastRt = 0;
  #lines = new Map<string, Line>();
  /**
   * Turn documents as last built, by the seqs of their messages: a message changes one or two turns, and rebuilding
   * every turn of a long session for each message (tokens, hashes) made a burst quadratic.
   */
  #docs = new Map<string, DraftDoc>();
  /** Where each turn (by its plain id and text) is stored: looked up once, not for every message of a long stretch. */
  #ids = new Map<string, TurnPlace & { hash: string }>();
  /** Turns another stretch of the session already holds word for word (a retry after a close): never sent. */
  #shared = new Set<string>();

  constructor(id: string, epoch: number, epochRt: number) {
    this.id = id;
    this.epoch = epoch;
    this.epochRt = epochRt;
  }

  get size(): number {
    return this.#byId.size;
  }

  has(messageId: string): boolean {
    return this.#byId.has(messageId);
  }

  /** Adds (or replaces: the same message id sent again) a message. */
  put(m: ChatMessage): void {
    this.#byId.set(m.id, m);
    this.#lines.delete(m.id);
    this.lastRt = Math.max(this.lastRt, m.rt);
  }

  remove(messageId: string): boolean {
    this.#lines.delete(messageId);
    return this.#byId.delete(messageId);
  }

  /**
   * The turns of this stretch, as documents, each under the id placeTurn gives it (`held`: the text hash of the turn
   * another stretch of the session holds under an id, or null).
   */
  turns(s: ChatSettings, held: (turnId: string) => string | null = () => null): DraftDoc[] {
    const kept = [...this.#byId.values()]
      .map((m) => this.#line(m, s))
      .filter((l) => l.kept)
      .sort((a, b) => a.m.atMs - b.m.atMs || a.m.seq - b.m.seq);
    const turns: Line[][] = [];
    let cur: Line[] = [];
    let curTokens = 0;
    for (const l of kept) {
      const prev = cur.at(-1);
      const flip = prev !== undefined && prev.m.role === 'assistant' && l.m.role === 'user';
      if (prev !== undefined && (flip || curTokens + l.tokens > s.maxTokens)) {
        turns.push(cur);
        cur = [];
        curTokens = 0;
      }
      cur.push(l);
      curTokens += l.tokens;
    }
    if (cur.length) turns.push(cur);
    const docs = new Map<string, DraftDoc>();
    const ids = new Map<string, TurnPlace & { hash: string }>();
    this.#shared.clear();
    const out = turns.map((t) => {
      const key = t.map((l) => l.m.seq).join(',');
      const doc = this.#docs.get(key) ?? turnDoc(this.id, this.epoch, t, s);
      docs.set(key, doc);
      const cached = this.#ids.get(doc.sourceId);
      const place =
        cached?.hash === doc.contentHash
          ? cached
          : { ...placeTurn(doc.sourceId, doc.contentHash, this.epoch, held), hash: doc.contentHash };
      ids.set(doc.sourceId, place);
      if (place.shared) this.#shared.add(place.id);
      return place.id === doc.sourceId ? doc : { ...doc, sourceId: place.id };
    });
    this.#docs = docs;
    this.#ids = ids;
    return out;
  }

  /** Whether the turn `turnId` (as turns() last gave it) is held word for word by another stretch: it is not sent. */
  shared(turnId: string): boolean {
    return this.#shared.has(turnId);
  }

  #line(m: ChatMessage, s: ChatSettings): Line {
    let l = this.#lines.get(m.id);
    if (!l || l.m !== m) {
      const kept = keepMessage(m.role, m.text, s);
      const line = `${ROLE_NAMES[m.role]}: ${m.text.trim()}`;
      l = { m, line, tokens: kept ? s.tokens.count(line) : 0, kept };
      this.#lines.set(m.id, l);
    }
    return l;
  }
}

/**
 * A turn's source id: `{session}:{first message id}-{last message id}`, so replaying the same messages upserts the same
 * row. Message ids are the client's: `%`, `-` and `@` in them are percent-escaped (idPart), or the turns (`a`, `b-c`)
 * and (`a-b`, `c`) of one stretch shared `s:a-b-c` and one replaced the other, as a message id ending `@<seq>` could
 * take placeTurn's suffix. A session id holds no `:` (the gateway refuses one), so it ends at the first `:` as it is.
 */
export function turnId(session: string, first: string, last: string): string {
  return `${session}:${idPart(first)}-${idPart(last)}`;
}

const ESCAPED: Record<string, string> = { '%': '%25', '-': '%2D', '@': '%40' };

/** A message id as a part of a turn id: one holding no `%`, `-` or `@` is itself (ids stored before stay valid). */
function idPart(id: string): string {
  return /[%@-]/.test(id) ? id.replace(/[%@-]/g, (c) => ESCAPED[c]!) : id;
}

export interface TurnPlace {
  id: string;
  /** Another stretch of the session holds this very text under `id`: nothing to store. */
  shared: boolean;
}

/**
 * Where a turn of the stretch `epoch` is stored: under its plain id, unless another stretch of the session holds
 * that id (a message id sent again after a close; `held` gives that turn's text hash) — with the same text (a client
 * retrying) the turn is already there; with another, `@<epoch>` goes after the id, so neither replaces the other.
 */
export function placeTurn(plain: string, hash: string, epoch: number, held: (turnId: string) => string | null): TurnPlace {
  let id = plain;
  for (let h = held(id); h !== null; h = held(id)) {
    if (h === hash) return { id, shared: true };
    id = `${id}@${epoch}`;
  }
  return { id, shared: false };
}

/** What a turn document's metadata says of each of its messages (enough to cut one out again when it is forgotten). */
export interface TurnMessage {
  id: string;
  role: ChatRole;
  at: number;
  seq: number;
  /** Its line's [start, end) in the turn's text (the chunks' contents joined). */
  span: [number, number];
  /** Who sent it (a turn's `agent` is its last message's): a session's owner is the one agent of all its messages. */
  agent?: string;
}

function turnDoc(session: string, epoch: number, turn: Line[], s: ChatSettings): DraftDoc {
  const first = turn[0]!.m;
  const last = turn.at(-1)!.m;
  let text = '';
  const messages: TurnMessage[] = [];
  for (const l of turn) {
    if (text !== '') text += '\n';
    messages.push({
      id: l.m.id,
      role: l.m.role,
      at: l.m.atMs,
      seq: l.m.seq,
      span: [text.length, text.length + l.line.length],
      agent: l.m.agent,
    });
    text += l.line;
  }
  const atMs = Math.max(...turn.map((l) => l.m.atMs));
  // the lines' own counts, summed, size the chunk: counting the joined text again cost a burst most of its time
  const counted = turn.reduce((n, l) => n + l.tokens, 0);
  return {
    sourceType: 'chat',
    sourceId: turnId(session, first.id, last.id),
    uri: null,
    title: `Chat ${session}`,
    contentHash: sha256Hex(text),
    metadata: {
      session_id: session,
      segment: epoch,
      first_at: Math.min(...turn.map((l) => l.m.atMs)),
      at_ms: atMs,
      agent: last.agent,
      messages,
    },
    tags: [],
    atMs,
    chunks: chunksOf(text, s.tokens, s.maxTokens, 0, counted),
    receivedAt: Math.max(...turn.map((l) => l.m.rt)),
  };
}

/** A turn rebuilt without some of its messages, from its stored text and metadata (a forget in a closed stretch). */
export function turnWithout(
  session: string,
  epoch: number,
  text: string,
  messages: TurnMessage[],
  drop: ReadonlySet<string>,
  agent: string,
  s: ChatSettings,
): DraftDoc | null {
  const rest = messages.filter((m) => !drop.has(m.id));
  if (rest.length === 0) return null;
  const lines: Line[] = rest.map((m) => {
    const line = text.slice(m.span[0], m.span[1]);
    const colon = line.indexOf(': ');
    return {
      m: {
        seq: m.seq,
        id: m.id,
        role: m.role,
        text: colon >= 0 ? line.slice(colon + 2) : line,
        atMs: m.at,
        rt: 0,
        agent: m.agent ?? agent,
      },
      line,
      tokens: s.tokens.count(line),
      kept: true,
    };
  });
  return turnDoc(session, epoch, lines, s);
}
