// The generic restart engine: runs a SupervisorSpec (OTP semantics) and is itself a Child, so trees nest.
import { assertNever, toWireError, type WireError } from '../messages/common.js';
import { backoffDelay } from './backoff.js';
import { systemClock, type Clock, type TimerHandle } from './clock.js';
import type { SupervisorEvent } from './events.js';
import { RestartWindow } from './intensity.js';
import type { Child, ChildExit, ChildSpec, RestartPolicy, StartCtx, SupervisorSpec } from './spec.js';
import { validateSpec } from './validate.js';

export interface SupervisorOpts {
  /** Time for restart intensity and backoff; tests pass a ManualClock. */
  clock?: Clock;
  /** In [0, 1), for backoff jitter. */
  random?: () => number;
  events?: (e: SupervisorEvent) => void;
}

export type ChildState = 'running' | 'restarting' | 'stopped';

export interface ChildInfo {
  id: string;
  state: ChildState;
  restarts: number;
}

/** A running tree as data (the status page's supervision tree): each supervisor's settings and its children in order. */
export interface SupervisorInfo {
  id: string;
  strategy: SupervisorSpec['strategy'];
  intensity: number;
  periodMs: number;
  /** A child that is itself a supervisor carries its own description while it runs. */
  children: Array<ChildInfo & { supervisor?: SupervisorInfo }>;
}

export interface Supervisor extends Child {
  readonly id: string;
  children(): ChildInfo[];
  /** This supervisor and, recursively, the nested supervisors now running under it. */
  describe(): SupervisorInfo;
  /** Resolves when the child is running (at once if it is); rejects if the supervisor exits first. */
  whenChildRunning(id: string): Promise<void>;
  /** Resolves when nothing is in progress: no start, stop or pending restart; every child running or stopped. */
  whenStable(): Promise<void>;
}

const settings = ({ id, strategy, intensity, periodMs }: SupervisorSpec) => ({ id, strategy, intensity, periodMs });

/** A nested supervisor that is not running (restarting, stopped): its shape from its spec, every child in its state. */
function describeSpec(spec: SupervisorSpec, state: ChildState): SupervisorInfo {
  const children = spec.children.map((c) => {
    const info: ChildInfo & { supervisor?: SupervisorInfo } = { id: c.id, state, restarts: 0 };
    if (c.nested) info.supervisor = describeSpec(c.nested, state);
    return info;
  });
  return { ...settings(spec), children };
}

/** Starts the children in order, each awaited before the next; rejects (after stopping those started) if one fails to start. */
export async function startSupervisor(spec: SupervisorSpec, opts: SupervisorOpts = {}): Promise<Supervisor> {
  validateSpec(spec);
  const sup = new RunningSupervisor(spec, opts);
  await sup.init();
  return sup;
}

/** A ChildSpec `start` that runs `spec` as a nested supervisor sharing its parent's clock, random and events. */
export function nestedSupervisor(spec: SupervisorSpec): (ctx: StartCtx) => Promise<Supervisor> {
  return (ctx) => startSupervisor(spec, { clock: ctx.clock, random: ctx.random, events: ctx.events });
}

/** One start of a child. `expected` is set before the supervisor stops it, so that exit is not mistaken for a crash. */
interface Incarnation {
  child: Child;
  expected: boolean;
}

interface Slot {
  spec: ChildSpec;
  index: number;
  state: ChildState;
  restarts: number;
  backoffN: number; // restarts since the child was last stable, for the backoff exponent
  lastStartAt?: number;
  live?: Incarnation;
  pending?: PendingRestart; // the restart this slot is waiting for; a later, wider one replaces it
}

interface PendingRestart {
  slots: Slot[];
  delayMs: number;
  timer?: TimerHandle;
}

type Phase = 'starting' | 'running' | 'stopping' | 'exited';

function shouldRestart(policy: RestartPolicy, exit: ChildExit): boolean {
  switch (policy) {
    case 'permanent':
      return true;
    case 'transient':
      return exit.kind !== 'normal';
    case 'temporary':
      return false;
    default:
      return assertNever(policy);
  }
}

function describeExit(id: string, exit: ChildExit): string {
  switch (exit.kind) {
    case 'normal':
      return `${id} exited normally`;
    case 'killed':
      return `${id} was killed`;
    case 'crash':
      return `${id} crashed (${exit.error.kind}: ${exit.error.message})`;
    default:
      return assertNever(exit);
  }
}

class RunningSupervisor implements Supervisor {
  readonly id: string;
  readonly exited: Promise<ChildExit>;
  #spec: SupervisorSpec;
  #clock: Clock;
  #random: () => number;
  #emit: (e: SupervisorEvent) => void;
  #slots: Slot[];
  #window: RestartWindow;
  #phase: Phase = 'starting';
  // Every decision (start, stop, restart) runs one at a time through this chain, so exits arriving together
  // are handled against a consistent picture of the children.
  #ops: Promise<void> = Promise.resolve();
  #busy = 0;
  #pendings = new Set<PendingRestart>();
  #waiters = new Set<() => boolean>();
  #resolveExit!: (exit: ChildExit) => void;

  constructor(spec: SupervisorSpec, opts: SupervisorOpts) {
    this.id = spec.id;
    this.#spec = spec;
    this.#clock = opts.clock ?? systemClock;
    this.#random = opts.random ?? Math.random;
    this.#emit = opts.events ?? (() => {});
    this.#window = new RestartWindow(spec.intensity, spec.periodMs);
    this.#slots = spec.children.map((c, index) => ({ spec: c, index, state: 'stopped', restarts: 0, backoffN: 0 }));
    this.exited = new Promise((resolve) => (this.#resolveExit = resolve));
  }

  async init(): Promise<void> {
    let failure: { slot: Slot; error: WireError } | undefined;
    await this.#enqueue(async () => {
      for (const slot of this.#slots) {
        if (this.#phase !== 'starting') return;
        try {
          await this.#startSlot(slot, 0, false);
        } catch (err) {
          failure = { slot, error: toWireError(err, 'start_failed') };
          this.#emit({ type: 'supervisor.child_start_failed', supervisor: this.id, child: slot.spec.id, error: failure.error });
          // OTP: a child that cannot start during init fails the supervisor's own start.
          await this.#shutdown(`child ${slot.spec.id} failed to start`);
          this.#finish({ kind: 'crash', error: { kind: 'start_failed', message: failure.error.message } });
          return;
        }
      }
      if (this.#phase === 'starting') this.#phase = 'running';
    });
    if (failure) {
      throw new Error(`supervisor ${this.id}: child ${failure.slot.spec.id} failed to start: ${failure.error.message}`);
    }
  }

  children(): ChildInfo[] {
    return this.#slots.map((s) => ({ id: s.spec.id, state: s.state, restarts: s.restarts }));
  }

  describe(): SupervisorInfo {
    const children = this.#slots.map((s) => {
      const info: ChildInfo & { supervisor?: SupervisorInfo } = { id: s.spec.id, state: s.state, restarts: s.restarts };
      const child = s.live?.child;
      if (child instanceof RunningSupervisor) info.supervisor = child.describe();
      else if (s.spec.nested) info.supervisor = describeSpec(s.spec.nested, s.state);
      return info;
    });
    return { ...settings(this.#spec), children };
  }

  async stop(reason: string): Promise<void> {
    if (this.#phase === 'starting' || this.#phase === 'running') {
      this.#phase = 'stopping';
      this.#cancelPendingRestarts();
      void this.#enqueue(async () => {
        await this.#shutdown(reason);
        this.#emit({ type: 'supervisor.stopped', supervisor: this.id, reason });
        this.#finish({ kind: 'normal' });
      });
    }
    await this.exited;
  }

  whenChildRunning(id: string): Promise<void> {
    const slot = this.#slots.find((s) => s.spec.id === id);
    if (!slot) return Promise.reject(new Error(`supervisor ${this.id} has no child ${JSON.stringify(id)}`));
    return this.#when(() => slot.state === 'running' && slot.live !== undefined, `child ${id} running`);
  }

  whenStable(): Promise<void> {
    return this.#when(
      () =>
        this.#busy === 0 &&
        this.#pendings.size === 0 &&
        this.#slots.every((s) => s.state === 'stopped' || (s.state === 'running' && s.live !== undefined)),
      'stable',
    );
  }

  #when(cond: () => boolean, what: string): Promise<void> {
    if (cond()) return Promise.resolve();
    if (this.#phase === 'exited') return Promise.reject(new Error(`supervisor ${this.id} exited before ${what}`));
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        if (cond()) resolve();
        else if (this.#phase === 'exited') reject(new Error(`supervisor ${this.id} exited before ${what}`));
        else return false;
        return true;
      };
      this.#waiters.add(check);
    });
  }

  #changed(): void {
    for (const check of this.#waiters) if (check()) this.#waiters.delete(check);
  }

  #enqueue(op: () => Promise<void>): Promise<void> {
    this.#busy++;
    const run = this.#ops.then(op).finally(() => {
      this.#busy--;
      this.#changed();
    });
    // A throw here is a bug in a child's stop or in this file: the supervisor cannot vouch for its children any more.
    this.#ops = run.catch((err: unknown) => this.#fail(err));
    return run;
  }

  async #startSlot(slot: Slot, delayMs: number, isRestart: boolean): Promise<void> {
    slot.lastStartAt = this.#clock.now();
    const ctx: StartCtx = {
      supervisorId: this.id,
      childId: slot.spec.id,
      restarts: isRestart ? slot.restarts + 1 : slot.restarts,
      shutdownMs: slot.spec.shutdownMs,
      clock: this.#clock,
      random: this.#random,
      events: this.#emit,
    };
    const child = await slot.spec.start(ctx);
    const inc: Incarnation = { child, expected: false };
    slot.live = inc;
    slot.state = 'running';
    slot.pending = undefined;
    if (isRestart) slot.restarts++;
    this.#emit({ type: 'supervisor.child_started', supervisor: this.id, child: slot.spec.id, restarts: slot.restarts });
    if (isRestart) {
      this.#emit({
        type: 'supervisor.child_restarted',
        supervisor: this.id,
        child: slot.spec.id,
        restarts: slot.restarts,
        delayMs,
      });
    }
    child.exited.then(
      (exit) => this.#onExit(slot, inc, exit),
      (err: unknown) => this.#onExit(slot, inc, { kind: 'crash', error: toWireError(err, 'exited_rejected') }),
    );
    this.#changed();
  }

  #onExit(slot: Slot, inc: Incarnation, exit: ChildExit): void {
    this.#emit({ type: 'supervisor.child_exited', supervisor: this.id, child: slot.spec.id, exit, expected: inc.expected });
    // Whoever stopped it on purpose is awaiting the exit and updates the slot itself.
    if (inc.expected) return;
    void this.#enqueue(() => this.#handleExit(slot, inc, exit));
  }

  async #handleExit(slot: Slot, inc: Incarnation, exit: ChildExit): Promise<void> {
    if (slot.live !== inc) return; // already stopped as part of a sibling's restart
    slot.live = undefined;
    if (this.#phase !== 'running' || !shouldRestart(slot.spec.restart, exit)) {
      slot.state = 'stopped';
      this.#changed();
      return;
    }
    await this.#restartFrom(slot, describeExit(slot.spec.id, exit));
  }

  /** `slot` has gone and must come back: check intensity, stop its group, schedule the group's restart. */
  async #restartFrom(slot: Slot, cause: string): Promise<void> {
    const now = this.#clock.now();
    if (!this.#window.admit(now)) {
      await this.#escalate(slot, cause);
      return;
    }
    if (slot.lastStartAt !== undefined && now - slot.lastStartAt >= this.#spec.periodMs) slot.backoffN = 0; // it was stable
    slot.backoffN++;
    const delayMs = slot.spec.backoff ? backoffDelay(slot.spec.backoff, slot.backoffN, this.#random) : 0;

    const group = this.#group(slot);
    for (const s of [...group].reverse()) {
      if (s !== slot && s.live) await this.#stopSlot(s, `restart: ${cause}`);
    }
    // OTP: a temporary sibling stopped for the group is not restarted.
    const restart = group.filter((s) => s === slot || s.spec.restart !== 'temporary');
    for (const s of group) if (!restart.includes(s)) s.state = 'stopped';

    const pending: PendingRestart = { slots: restart, delayMs };
    for (const s of restart) {
      s.pending = pending;
      s.state = 'restarting';
    }
    this.#pendings.add(pending);
    this.#emit({
      type: 'supervisor.restart_scheduled',
      supervisor: this.id,
      cause,
      children: restart.map((s) => s.spec.id),
      delayMs,
    });
    this.#changed();
    if (delayMs === 0) {
      await this.#runRestart(pending);
    } else {
      pending.timer = this.#clock.setTimeout(() => {
        pending.timer = undefined;
        void this.#enqueue(() => this.#runRestart(pending));
      }, delayMs);
    }
  }

  /** Children that go down and come back with `slot`, in start order. */
  #group(slot: Slot): Slot[] {
    const strategy = this.#spec.strategy;
    switch (strategy) {
      case 'one_for_one':
        return [slot];
      case 'rest_for_one':
        return this.#slots.filter((s) => s === slot || (s.index > slot.index && s.state !== 'stopped'));
      case 'one_for_all':
        return this.#slots.filter((s) => s === slot || s.state !== 'stopped');
      default:
        return assertNever(strategy);
    }
  }

  async #runRestart(pending: PendingRestart): Promise<void> {
    this.#pendings.delete(pending);
    // Members a later, wider restart has taken over are started by that one instead.
    const members = pending.slots.filter((s) => s.pending === pending);
    for (const s of members) {
      if (this.#phase !== 'running') return;
      try {
        await this.#startSlot(s, pending.delayMs, true);
      } catch (err) {
        const error = toWireError(err, 'start_failed');
        this.#emit({ type: 'supervisor.child_start_failed', supervisor: this.id, child: s.spec.id, error });
        s.pending = undefined;
        // A failed restart counts as another crash of the child; its group includes the members not yet started.
        await this.#restartFrom(s, `${s.spec.id} failed to restart (${error.kind}: ${error.message})`);
        return;
      }
    }
  }

  async #escalate(slot: Slot, cause: string): Promise<void> {
    this.#phase = 'stopping';
    this.#cancelPendingRestarts();
    const { intensity, periodMs } = this.#spec;
    const restarts = this.#window.count(this.#clock.now());
    this.#emit({ type: 'supervisor.escalated', supervisor: this.id, child: slot.spec.id, restarts, periodMs });
    await this.#shutdown('escalated');
    this.#finish({
      kind: 'crash',
      error: {
        kind: 'escalated',
        message: `supervisor ${this.id}: more than ${intensity} restarts in ${periodMs} ms; last: ${cause}`,
      },
    });
  }

  async #stopSlot(slot: Slot, reason: string): Promise<void> {
    const inc = slot.live;
    if (!inc) return;
    inc.expected = true;
    await inc.child.stop(reason);
    await inc.child.exited;
    if (slot.live === inc) slot.live = undefined;
    this.#changed();
  }

  /** Stops every running child in reverse start order and marks all stopped. */
  async #shutdown(reason: string): Promise<void> {
    for (const s of [...this.#slots].reverse()) {
      await this.#stopSlot(s, reason);
      s.state = 'stopped';
      s.pending = undefined;
    }
  }

  #cancelPendingRestarts(): void {
    for (const p of this.#pendings) if (p.timer) this.#clock.clearTimeout(p.timer);
    this.#pendings.clear();
  }

  #finish(exit: ChildExit): void {
    this.#phase = 'exited';
    this.#resolveExit(exit);
    this.#changed();
  }

  #fail(err: unknown): void {
    if (this.#phase === 'exited') return;
    this.#phase = 'exited';
    this.#cancelPendingRestarts();
    const error = toWireError(err, 'supervisor_failed');
    // Best effort: the chain that would stop children in order is what just broke.
    for (const s of [...this.#slots].reverse()) {
      if (s.live) {
        s.live.expected = true;
        s.live.child.stop(`supervisor ${this.id} failed`).catch(() => {});
      }
      s.state = 'stopped';
    }
    this.#emit({ type: 'supervisor.stopped', supervisor: this.id, reason: `failed: ${error.message}` });
    this.#resolveExit({ kind: 'crash', error });
    this.#changed();
  }
}
