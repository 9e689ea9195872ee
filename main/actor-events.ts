// What main does with its actors' and supervisors' events: logs them with stable names, counts restarts by reason,
// ends the flight of a note whose message was dropped as poison (else the watcher would wait for it forever), and says
// when an actor went down on a damaged page of the index file (main has it rebuilt).
import { isDamagedIndex } from '../actors/store-writer/damaged-index.js';
import { assertNever, type WireError } from '../messages/common.js';
import type { ActorEvent } from '../messages/actor.js';
import type { SupervisorEvent } from '../supervisors/events.js';
import type { EventLogger } from '../supervisors/runtime/log.js';
import type { MainMetrics } from './metrics.js';
import type { Router } from './router.js';

export class ActorEvents {
  readonly #lastExit = new Map<string, string>();

  constructor(
    readonly log: EventLogger,
    readonly metrics: MainMetrics,
    readonly router: Router,
    /** An actor crashed, or failed to start again, on a damaged page of the index file. */
    readonly damaged: (actor: string, error: WireError) => void = () => {},
  ) {}

  actor(e: ActorEvent): void {
    const log = this.log;
    switch (e.type) {
      case 'actor.poison': {
        log.event('message_poisoned', { actor: e.actor, attempts: e.attempts, error: e.error.message, msg: summarise(e.msg) });
        const p = (e.msg as { path?: unknown; note?: { path?: unknown } } | null) ?? {};
        const notePath = typeof p.path === 'string' ? p.path : typeof p.note?.path === 'string' ? p.note.path : null;
        // the path must still finish, or the watcher would hold it in flight forever
        if (notePath && e.actor !== 'store')
          this.router.route(
            {
              type: 'store.file_failed',
              path: notePath as never,
              reason: 'crashed',
              message: `the ${e.actor} crashed ${e.attempts} times on this note: ${e.error.message}`,
            },
            'main',
          );
        return;
      }
      case 'actor.redelivered':
        log.info({ event: 'actor_restarted', actor: e.actor, redelivered: e.count }, 'unacknowledged messages redelivered');
        return;
      case 'actor.mailbox_full':
      case 'actor.drained':
        log.debug({ event: e.type, actor: e.actor, depth: e.depth }, e.type);
        return;
      case 'actor.undeliverable':
        log.error({ event: 'message_poisoned', actor: e.actor, error: e.error.message }, 'a message could not be copied to the worker');
        return;
      case 'actor.log':
        log[e.level]({ actor: e.actor, ...e.fields }, e.msg);
        return;
      default:
        assertNever(e);
    }
  }

  supervisor(e: SupervisorEvent): void {
    const log = this.log;
    switch (e.type) {
      case 'supervisor.child_exited':
        if (!e.expected) {
          this.#lastExit.set(e.child, e.exit.kind === 'crash' ? e.exit.error.kind : e.exit.kind);
          log.warn({ event: 'actor_exited', supervisor: e.supervisor, actor: e.child, exit: e.exit }, `${e.child} exited`);
          if (e.exit.kind === 'crash' && isDamagedIndex({ code: e.exit.error.kind })) this.damaged(e.child, e.exit.error);
        }
        return;
      case 'supervisor.child_start_failed':
        if (isDamagedIndex({ code: e.error.kind })) this.damaged(e.child, e.error);
        log.debug({ event: e.type, ...e }, e.type);
        return;
      case 'supervisor.child_restarted':
        // the reason is how it went down (crash kind, killed, …); siblings restarted with it say `sibling`
        this.metrics.restarts.inc({ actor: e.child, reason: this.#lastExit.get(e.child) ?? 'sibling' });
        this.#lastExit.delete(e.child);
        log.event('actor_restarted', { supervisor: e.supervisor, actor: e.child, restarts: e.restarts, delay_ms: e.delayMs });
        return;
      case 'supervisor.escalated':
        log.error(
          { event: 'actor_escalated', supervisor: e.supervisor, actor: e.child, restarts: e.restarts, period_ms: e.periodMs },
          'restart intensity exceeded',
        );
        return;
      case 'supervisor.child_started':
        log.debug({ event: 'actor_started', supervisor: e.supervisor, actor: e.child, restarts: e.restarts }, 'started');
        return;
      default:
        log.debug({ event: e.type, ...e }, e.type);
    }
  }
}

function summarise(msg: unknown): unknown {
  if (msg && typeof msg === 'object' && 'type' in msg) {
    const m = msg as { type: string; path?: unknown; note?: { path?: unknown } };
    return { type: m.type, path: m.path ?? m.note?.path };
  }
  return typeof msg;
}
