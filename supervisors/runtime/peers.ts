// Worker-side direct channels between two actors (the gateway and the git writer): a request goes straight to the
// other worker over a MessagePort main made for the pair, instead of through main's mailbox and back — two thread
// hops instead of four. Main hands each side a fresh port whenever either incarnation starts (see connectPeers).
// When the answering worker dies (its port closes) or is stopping, every request it had not answered is sent again
// through main's mailbox, as one that was in flight in the mailbox is delivered again: a restart loses no request.
import type { MessagePort } from 'node:worker_threads';
import { type Clock, systemClock, type TimerHandle } from '../clock.js';
import { ActorRequestError, type ActorRequestFailure } from './errors.js';

/** What travels on a peer port. */
export type PeerMsg =
  | { type: 'peer.request'; id: number; msg: { type: string } }
  | { type: 'peer.reply'; id: number; ok: true; value: unknown }
  /** `reroute`: not handled here (the worker is stopping); ask through main. Anything else is the request's failure. */
  | { type: 'peer.reply'; id: number; ok: false; error: { kind: ActorRequestFailure | 'reroute'; message: string } };

/** Main's `actor.peer` message: a port to actor `name`, the request types this side may ask over it and answer on it. */
export interface PeerLink {
  name: string;
  port: MessagePort;
  asks: string[];
  answers: string[];
}

/** A request a peer sent, handed to the worker's message loop; exactly one of reply/fail is called for it. */
export interface DirectRequest {
  msg: { type: string };
  reply(value: unknown): void;
  fail(kind: ActorRequestFailure | 'reroute', message: string): void;
}

interface Asked {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  msg: { type: string };
  /** The clock's deadline, or null: no timeout. */
  deadline: number | null;
  timer: TimerHandle | undefined;
}

interface Link extends PeerLink {
  asked: Map<number, Asked>;
  asksSet: Set<string>;
  answersSet: Set<string>;
}

export class Peers {
  readonly #links = new Map<string, Link>();
  #next = 1;

  constructor(
    /** The request through main's mailbox (the way every request went before): used when no peer port can take it. */
    readonly viaHost: (msg: { type: string }, timeoutMs: number | null) => Promise<unknown>,
    /** A peer's request for this worker's handler. */
    readonly onRequest: (r: DirectRequest) => void,
    readonly clock: Clock = systemClock,
  ) {}

  /** Takes a port from main; one already held for the same actor is closed (its unanswered requests go through main). */
  attach(link: PeerLink): void {
    const old = this.#links.get(link.name);
    const l: Link = { ...link, asked: new Map(), asksSet: new Set(link.asks), answersSet: new Set(link.answers) };
    this.#links.set(link.name, l);
    if (old) this.#gone(old);
    link.port.on('message', (m: PeerMsg) => this.#onMessage(l, m));
    link.port.on('close', () => this.#gone(l));
  }

  /** Asks over a peer port when one is connected for `msg`'s actor and type; else through main. */
  request(msg: { type: string }, timeoutMs: number | null): Promise<unknown> {
    const l = this.#links.get(msg.type.slice(0, msg.type.indexOf('.')));
    if (!l?.asksSet.has(msg.type)) return this.viaHost(msg, timeoutMs);
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      const a: Asked = {
        resolve,
        reject,
        msg,
        deadline: timeoutMs === null ? null : this.clock.now() + timeoutMs,
        timer: undefined,
      };
      if (timeoutMs !== null)
        a.timer = this.clock.setTimeout(() => {
          l.asked.delete(id);
          reject(new ActorRequestError('timeout', `actor ${l.name}: no reply within ${timeoutMs} ms`));
        }, timeoutMs);
      l.asked.set(id, a);
      l.port.postMessage({ type: 'peer.request', id, msg } satisfies PeerMsg);
    });
  }

  #onMessage(l: Link, m: PeerMsg): void {
    switch (m.type) {
      case 'peer.request': {
        const reply = (r: PeerMsg): void => {
          if (this.#links.get(l.name) === l) l.port.postMessage(r); // a replaced port's asker has gone through main
        };
        if (!l.answersSet.has(m.msg.type)) {
          reply({
            type: 'peer.reply',
            id: m.id,
            ok: false,
            error: { kind: 'undeclared', message: `${m.msg.type} may not be asked over the ${l.name} port` },
          });
          return;
        }
        this.onRequest({
          msg: m.msg,
          reply: (value) => reply({ type: 'peer.reply', id: m.id, ok: true, value }),
          fail: (kind, message) => reply({ type: 'peer.reply', id: m.id, ok: false, error: { kind, message } }),
        });
        return;
      }
      case 'peer.reply': {
        const a = l.asked.get(m.id);
        if (!a) return; // timed out meanwhile
        l.asked.delete(m.id);
        if (m.ok) this.#settle(a, () => a.resolve(m.value));
        else if (m.error.kind === 'reroute') this.#reroute(a);
        else {
          const kind = m.error.kind;
          this.#settle(a, () => a.reject(new ActorRequestError(kind, m.error.message)));
        }
        return;
      }
    }
  }

  #settle(a: Asked, done: () => void): void {
    if (a.timer) this.clock.clearTimeout(a.timer);
    done();
  }

  /** Sent again through main with what is left of its timeout: main's mailbox keeps it for the next incarnation. */
  #reroute(a: Asked): void {
    if (a.timer) this.clock.clearTimeout(a.timer);
    const left = a.deadline === null ? null : Math.max(1, Math.round(a.deadline - this.clock.now()));
    this.viaHost(a.msg, left).then(a.resolve, a.reject);
  }

  /** The port closed (the other worker died, or main replaced the port): what it had not answered goes through main. */
  #gone(l: Link): void {
    if (this.#links.get(l.name) === l) this.#links.delete(l.name);
    const left = [...l.asked.values()];
    l.asked.clear();
    l.port.close();
    for (const a of left) this.#reroute(a);
  }
}
