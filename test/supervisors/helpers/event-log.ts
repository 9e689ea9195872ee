// Records events in order and lets a test await the next one that matches, instead of sleeping.

export class EventLog<E extends { type: string }> {
  readonly events: E[] = [];
  #waiters: Array<{ pred: (e: E) => boolean; resolve: (e: E) => void; from: number }> = [];

  /** Pass as the `events` option. */
  readonly push = (e: E): void => {
    this.events.push(e);
    const idx = this.events.length - 1;
    this.#waiters = this.#waiters.filter((w) => {
      if (idx < w.from || !w.pred(e)) return true;
      w.resolve(e);
      return false;
    });
  };

  /** The first event at index >= `from` (default: any so far) that matches, now or when it comes. */
  waitFor<T extends E>(pred: (e: E) => e is T, from?: number): Promise<T>;
  waitFor(pred: (e: E) => boolean, from?: number): Promise<E>;
  waitFor(pred: (e: E) => boolean, from = 0): Promise<E> {
    const found = this.events.slice(from).find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ pred, resolve, from }));
  }

  /** Index to pass as `from` to wait only for events after this point. */
  mark(): number {
    return this.events.length;
  }

  ofType<K extends E['type']>(type: K): Extract<E, { type: K }>[] {
    return this.events.filter((e): e is Extract<E, { type: K }> => e.type === type);
  }
}
