// Supervision trees as data: a supervisor's strategy, restart intensity and ordered child specs (OTP's child_spec).
import type { Clock } from './clock.js';
import type { ChildExit, SupervisorEvent } from './events.js';

export type { ChildExit } from './events.js';

export type Strategy = 'one_for_one' | 'rest_for_one' | 'one_for_all';

export interface SupervisorSpec {
  id: string;
  strategy: Strategy;
  /** More than `intensity` restarts within `periodMs` and the supervisor gives up: it stops every child and escalates. */
  intensity: number;
  periodMs: number;
  /** Started in this order, stopped in reverse. */
  children: ChildSpec[];
}

/**
 * `permanent` is always restarted; `transient` only after an abnormal exit (crash or killed);
 * `temporary` never, and its exit does not disturb its siblings.
 */
export type RestartPolicy = 'permanent' | 'transient' | 'temporary';

export interface Backoff {
  /** Delay before the first restart; doubles each further restart up to `maxMs`. */
  minMs: number;
  maxMs: number;
  /** Fraction, 0..1: the delay is spread uniformly over ±jitter of itself. */
  jitter: number;
}

export interface ChildSpec {
  id: string;
  /** Resolves once the child is ready (its init finished); throwing counts as a crash of the child. */
  start: (ctx: StartCtx) => Promise<Child> | Child;
  restart: RestartPolicy;
  /** How long `stop` gives the child to finish before it is terminated. */
  shutdownMs: number;
  backoff?: Backoff;
  /** The child is this supervisor (nestedSupervisor): its shape is described even while it is not running. */
  nested?: SupervisorSpec;
}

/** What a starting child learns from its supervisor; a nested supervisor inherits clock, random and events from it. */
export interface StartCtx {
  supervisorId: string;
  childId: string;
  /** 0 on the first start, then the number of restarts so far. */
  restarts: number;
  shutdownMs: number;
  clock: Clock;
  random: () => number;
  events: (e: SupervisorEvent) => void;
}

/** A running child: a worker incarnation, or a whole supervisor. */
export interface Child {
  /** Settles once, when the child has gone; never rejects. */
  readonly exited: Promise<ChildExit>;
  /** Graceful: asks the child to drain, terminates it after its shutdownMs; resolves once it has exited. */
  stop(reason: string): Promise<void>;
}
