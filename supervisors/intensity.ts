// Restart intensity: the sliding window that decides when a supervisor stops restarting and escalates instead.

/** Remembers restart times; `admit` says whether one more restart stays within `intensity` per `periodMs`. */
export class RestartWindow {
  #times: number[] = [];

  constructor(
    readonly intensity: number,
    readonly periodMs: number,
  ) {}

  /**
   * Records a restart at `now`. False when that makes more than `intensity` restarts within the last `periodMs`
   * (a restart exactly `periodMs` old has left the window).
   */
  admit(now: number): boolean {
    this.#times = this.#times.filter((t) => now - t < this.periodMs);
    this.#times.push(now);
    return this.#times.length <= this.intensity;
  }

  /** Restarts currently inside the window ending at `now`. */
  count(now: number): number {
    return this.#times.filter((t) => now - t < this.periodMs).length;
  }
}
