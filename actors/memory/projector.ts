// Turns the memory core's work into store batches: coalesces what a burst changed many times (a growing turn is
// embedded once, as it ends up), reuses stored vectors by chunk hash, embeds the rest, and sends one batch at a time
// with the journal checkpoint it makes true. A batch is pending until the store writer says it applied it.
import type { ModelInfo } from '../../messages/common.js';
import type { DocKey, EpisodeBatch, EpisodeDoc } from '../../messages/episodes.js';
import { keyOf, type DraftDoc, type Queued, type Work } from './work.js';

export interface ProjectorDeps {
  /** The model's vectors for `texts`, in order; rejects when the model call fails. Null: no model (keyword-only). */
  embedder(): Promise<{ embed(texts: string[]): Promise<Float32Array[]>; model: ModelInfo } | null>;
  /** Stored vectors by chunk hash (any document), so unchanged text is never embedded again. */
  reuse(hashes: string[]): Map<string, Float32Array>;
  send(batch: EpisodeBatch): void;
  /** The index generation batches are built for now. */
  generation(): number;
  /** The `meta` rows that record how far the journal is projected once this batch is in (given the lowest still queued). */
  checkpoint(queuedLow: { seq: number; rt: number } | null): Array<{ key: string; value: string | null }>;
  /** Rebuilds the turns that held forgotten messages of stretches no longer in memory (reads the index). */
  forgetChat(items: Array<{ session: string; messageIds: string[] }>): Work[];
  /**
   * A step failed: true when the caller has it in hand (the index file is damaged and being rebuilt; a reset follows
   * the swap) and the projector holds still until then; false takes the actor down, to replay from the checkpoint.
   */
  halt(err: unknown): boolean;
  /** A document went to the index without vectors (the model failed): counted and logged by the caller. */
  failed(sourceType: string, reason: string, detail: string): void;
  /** Texts sent to the model, by the source type of the first document holding each. */
  embedded(sourceType: string, n: number): void;
  /** Pending work changed (count, and the monotonic time the oldest was queued). */
  changed(pending: number, oldestSince: number | null): void;
  now(): number;
}

/** Work items one batch takes at most: one store transaction, a few model calls. */
const MAX_ITEMS = 256;
/**
 * Vectors this projector computed lately, by chunk hash: the same text queued twice before the first batch reaches
 * the index (a log change seen by the OS watcher and by the git writer's notice) is embedded once. ~2 KB each.
 */
const RECENT = 2_048;

export class Projector {
  readonly #d: ProjectorDeps;
  #queue: Queued[] = [];
  readonly #inFlight = new Map<number, Queued[]>();
  /** Taken from the queue and being embedded: still pending. */
  #building: Queued[] = [];
  #nextBatch = 1;
  #running: Promise<void> | null = null;
  /** A step failed and the caller holds the projector still (halt) until the next reset. */
  #halted = false;
  #idle: Array<() => void> = [];
  #confirmed: Array<() => void> = [];

  constructor(deps: ProjectorDeps) {
    this.#d = deps;
  }

  #pushed = 0;
  #barriers: Array<{ n: number; done: () => void }> = [];

  push(work: Work, rec: { seq: number; rt: number }): void {
    this.#queue.push({ work, seq: rec.seq, rt: rec.rt, since: this.#d.now(), n: ++this.#pushed });
    this.#report();
    this.#kick();
  }

  /** Steps under way that will queue work (a changed log waiting out its debounce, then being read). */
  #held = 0;
  hold(delta: number): void {
    this.#held = Math.max(0, this.#held + delta);
    this.#report();
    this.#settle();
  }

  /** Work queued or sent and not yet applied (and steps that will queue some). */
  get pending(): number {
    let n = this.#queue.length + this.#building.length + this.#held;
    for (const items of this.#inFlight.values()) n += items.length;
    return n;
  }

  /** The lowest journal seq of work not yet in the index (queued, being embedded or sent), or null when there is none. */
  get lowestSeq(): number | null {
    let low: number | null = null;
    for (const items of [...this.#inFlight.values(), this.#queue, this.#building])
      for (const q of items) if (q.seq > 0 && (low === null || q.seq < low)) low = q.seq;
    return low;
  }

  get oldestSince(): number | null {
    let oldest: number | null = null;
    for (const items of [...this.#inFlight.values(), this.#queue, this.#building])
      for (const q of items) if (oldest === null || q.since < oldest) oldest = q.since;
    return oldest;
  }

  /** The store writer applied batch `id`. */
  projected(id: number): void {
    if (!this.#inFlight.delete(id)) return;
    this.#report();
    this.#checkBarriers();
    if (this.#inFlight.size === 0) for (const f of this.#confirmed.splice(0)) f();
    this.#settle();
  }

  /** Resolves once everything queued so far is in the index (later work need not be). */
  applied(): Promise<void> {
    const n = this.#pushed;
    if (!this.#holds(n)) return Promise.resolve();
    return new Promise((done) => this.#barriers.push({ n, done }));
  }

  /** Whether any item queued at or before `n` is not applied yet. */
  #holds(n: number): boolean {
    for (const items of [this.#queue, this.#building, ...this.#inFlight.values()]) for (const q of items) if (q.n <= n) return true;
    return false;
  }

  #checkBarriers(): void {
    this.#barriers = this.#barriers.filter((b) => {
      if (this.#holds(b.n)) return true;
      b.done();
      return false;
    });
  }

  /** Work queued, being embedded, or sent and not yet applied (steps on hold not counted). */
  get #work(): number {
    return this.pending - this.#held;
  }

  /** Resolves when nothing is queued or waiting for the store (steps on hold aside). */
  drained(): Promise<void> {
    if (this.#work === 0 && !this.#running) return Promise.resolve();
    return new Promise((r) => this.#idle.push(r));
  }

  /** Resolves once fewer than `n` items are queued (replay backpressure). */
  async below(n: number): Promise<void> {
    while (this.#queue.length >= n) await new Promise<void>((r) => this.#confirmed.push(r));
  }

  /** Drops what is queued and forgets batches in flight (a rescan starts over from the index's checkpoint). */
  reset(): void {
    this.#halted = false;
    this.#queue = [];
    this.#building = [];
    this.#inFlight.clear();
    this.#report();
    this.#checkBarriers();
    for (const f of this.#confirmed.splice(0)) f();
    this.#settle();
  }

  #report(): void {
    this.#d.changed(this.pending, this.oldestSince);
  }

  #settle(): void {
    if (this.#work === 0 && !this.#running) for (const f of this.#idle.splice(0)) f();
  }

  #kick(): void {
    if (this.#halted) return;
    // a step that fails leaves the projector stopped (a batch sent after it would record a checkpoint past the failed
    // work): held still until a reset when the caller has the failure in hand, else the actor goes down and replays
    this.#running ??= this.#run().then(
      () => {
        this.#running = null;
        if (this.#queue.length) this.#kick();
        else this.#settle();
      },
      (err: unknown) => {
        this.#halted = true;
        this.#running = null;
        if (!this.#d.halt(err)) throw err;
      },
    );
  }

  async #allConfirmed(): Promise<void> {
    while (this.#inFlight.size > 0) await new Promise<void>((r) => this.#confirmed.push(r));
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0) {
      let items: Queued[];
      let works: Work[];
      if (this.#queue[0]!.work.op === 'forget_chat') {
        // the turns to rebuild are read from the index: every batch before this one must be in it
        await this.#allConfirmed();
        const n = this.#queue.findIndex((q) => q.work.op !== 'forget_chat');
        items = this.#queue.splice(0, n < 0 ? this.#queue.length : n);
        works = this.#d.forgetChat(
          items.map((q) => {
            const w = q.work as Extract<Work, { op: 'forget_chat' }>;
            return { session: w.session, messageIds: w.messageIds };
          }),
        );
      } else {
        const stop = this.#queue.findIndex((q, i) => i >= MAX_ITEMS || q.work.op === 'forget_chat');
        items = this.#queue.splice(0, stop < 0 ? this.#queue.length : stop);
        works = items.map((q) => q.work);
      }
      this.#building = items;
      const batch = await this.#build(works);
      this.#building = [];
      const next = this.#queue.reduce<{ seq: number; rt: number } | null>(
        (low, q) => (q.seq > 0 && (!low || q.seq < low.seq) ? { seq: q.seq, rt: q.rt } : low),
        null,
      );
      batch.meta.push(...this.#d.checkpoint(next));
      this.#inFlight.set(batch.id, items);
      this.#d.send(batch);
      for (const f of this.#confirmed.splice(0)) f(); // queue shrank: replay may go on
    }
  }

  async #build(works: Work[]): Promise<EpisodeBatch> {
    // the last word on each document (or meta row) wins: a turn that grew ten times in a burst is embedded once
    const last = new Map<string, Work>();
    for (const w of works) {
      const k = keyOf(w);
      if (k === null) continue;
      last.delete(k);
      last.set(k, w);
    }
    const upserts: Array<{ doc: DraftDoc; fresh: boolean }> = [];
    const deletes: DocKey[] = [];
    const softDeletes: DocKey[] = [];
    const meta: Array<{ key: string; value: string | null }> = [];
    for (const w of last.values()) {
      if (w.op === 'upsert') upserts.push({ doc: w.doc, fresh: w.fresh });
      else if (w.op === 'delete') deletes.push(w.key);
      else if (w.op === 'soft_delete') softDeletes.push(w.key);
      else if (w.op === 'meta') meta.push({ key: w.key, value: w.value });
    }
    const docs = await this.#vectors(upserts);
    return { id: this.#nextBatch++, generation: this.#d.generation(), upserts: docs, deletes, softDeletes, meta, model: this.#model };
  }

  #model: ModelInfo | null = null;
  readonly #recent = new Map<string, Float32Array>();

  async #vectors(upserts: Array<{ doc: DraftDoc; fresh: boolean }>): Promise<EpisodeDoc[]> {
    const e = upserts.length ? await this.#d.embedder() : null;
    this.#model = e?.model ?? null;
    if (!e) return upserts.map(({ doc }) => ({ ...doc, chunks: doc.chunks.map((c) => ({ ...c, vector: null })) }));
    const reused = this.#d.reuse(upserts.filter((u) => !u.fresh).flatMap((u) => u.doc.chunks.map((c) => c.hash)));
    for (const u of upserts)
      if (!u.fresh)
        for (const c of u.doc.chunks) {
          const v = this.#recent.get(c.hash);
          if (v && !reused.has(c.hash)) reused.set(c.hash, v);
        }
    const wanted = new Map<string, string>(); // hash → text, embedded once however many documents share it
    for (const u of upserts) for (const c of u.doc.chunks) if (u.fresh || !reused.has(c.hash)) wanted.set(c.hash, c.content);
    const fresh = new Map<string, Float32Array>();
    if (wanted.size > 0) {
      try {
        const vectors = await e.embed([...wanted.values()]);
        [...wanted.keys()].forEach((h, i) => {
          fresh.set(h, vectors[i]!);
          this.#recent.delete(h);
          this.#recent.set(h, vectors[i]!.slice()); // its own copy: a view would keep the whole batch buffer alive
        });
        while (this.#recent.size > RECENT) this.#recent.delete(this.#recent.keys().next().value!);
        const by = new Map<string, number>();
        const seen = new Set<string>();
        for (const u of upserts)
          for (const c of u.doc.chunks)
            if (wanted.has(c.hash) && !seen.has(c.hash)) {
              seen.add(c.hash);
              by.set(u.doc.sourceType, (by.get(u.doc.sourceType) ?? 0) + 1);
            }
        for (const [k, n] of by) this.#d.embedded(k, n);
      } catch (err) {
        // still keyword-searchable: stored without vectors, the failure counted and logged, nothing dropped
        const kinds = new Set(upserts.filter((u) => u.doc.chunks.some((c) => wanted.has(c.hash))).map((u) => u.doc.sourceType));
        for (const k of kinds) this.#d.failed(k, 'embed_failed', (err as Error)?.message ?? String(err));
      }
    }
    return upserts.map(({ doc }) => ({
      ...doc,
      chunks: doc.chunks.map((c) => ({ ...c, vector: fresh.get(c.hash) ?? reused.get(c.hash) ?? null })),
    }));
  }
}
