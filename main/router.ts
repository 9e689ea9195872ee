// Main's router: delivers each message an actor (or main) sends to the actor named before the dot in its type, and
// each request to the actor (or main) that answers it — only what the sender declared in supervisors/actors.ts.
import { destinationOf, type AnyMsg, type MainMsg } from '../messages/index.js';
import { declared, type RoutedActor } from '../supervisors/actors.js';
import { ActorRequestError } from '../supervisors/runtime/errors.js';
import type { ActorHandle } from '../supervisors/runtime/host.js';
import type { EventLogger } from '../supervisors/runtime/log.js';

export type MainRequest = Extract<MainMsg, { type: 'main.metrics' | 'main.reindex' | 'main.supervision' }>;
export type MainNotice = Exclude<MainMsg, MainRequest>;
export type Sender = RoutedActor | 'main';

export interface RouterDeps {
  handles: Partial<Record<RoutedActor, ActorHandle<unknown>>>;
  log: EventLogger;
  /** Main's own mail: progress notices (watcher state, commits). */
  notice(msg: MainNotice): void;
  /** Requests only main answers (merged metrics, a reindex). */
  answer(msg: MainRequest): Promise<unknown>;
}

export class Router {
  readonly #d: RouterDeps;
  readonly #listeners = new Set<(msg: AnyMsg) => void>();

  constructor(deps: RouterDeps) {
    this.#d = deps;
  }

  /** Observe every message and request routed (tests await `watcher.done` for a path; chaos runs count outcomes). */
  onRouted(listener: (msg: AnyMsg) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A request that went straight from one actor to its peer (supervisors/runtime/peers.ts): shown to the observers. */
  observed(msg: AnyMsg): void {
    for (const l of this.#listeners) l(msg);
  }

  route(msg: AnyMsg, from: Sender): void {
    if (declared(from, msg.type)) this.#deliver(msg);
    else this.#undeclared(from, msg.type, 'message');
  }

  request(msg: AnyMsg, from: Sender, timeoutMs: number | null): Promise<unknown> {
    if (!declared(from, msg.type, true)) {
      this.#undeclared(from, msg.type, 'request');
      return Promise.reject(
        new ActorRequestError('undeclared', `${from} may not ask ${msg.type}: not in its requests in supervisors/actors.ts`),
      );
    }
    for (const l of this.#listeners) l(msg);
    const dest = destinationOf(msg);
    if (dest === 'main') return this.#d.answer(msg as MainRequest);
    const h = this.#d.handles[dest];
    if (!h) return Promise.reject(new ActorRequestError('not_running', `the ${dest} actor is not running (one-shot mode, or writes off)`));
    return h.request(msg, timeoutMs);
  }

  #deliver(msg: AnyMsg): void {
    for (const l of this.#listeners) l(msg);
    const dest = destinationOf(msg);
    if (dest === 'main') {
      this.#d.notice(msg as MainNotice);
      return;
    }
    const h = this.#d.handles[dest];
    if (!h) return; // not running in this mode: the gateway in a one-shot index, the git writer with writes off
    // mailbox full: hold the message and resend when it drains (the watcher's admission keeps this rare)
    if (!h.send(msg)) void h.onDrain().then(() => this.#deliver(msg));
  }

  /** A send the table does not declare is a bug in the sender: dropped, loudly. */
  #undeclared(from: Sender, type: string, what: 'message' | 'request'): void {
    this.#d.log.error(
      { event: 'route_undeclared', from, type, what },
      `${from} sent ${type}, which supervisors/actors.ts does not declare for it; dropped`,
    );
  }
}
