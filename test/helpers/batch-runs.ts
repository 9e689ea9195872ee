// A `run` for the Batcher that records each batch and lets the test settle it: the model call, under the test's control.

export interface BatchRun {
  texts: string[];
  /** Answers with one vector per text: [the number in the text] (`t7` → [7]). */
  answer(): void;
  /** Answers with these vectors as they are (e.g. too few). */
  answerWith(vectors: Float32Array[]): void;
  fail(err: Error): void;
}

export interface BatchRuns {
  run: (texts: string[]) => Promise<Float32Array[]>;
  runs: BatchRun[];
  /** The most runs that were unsettled at one time. */
  maxAtOnce(): number;
  /** Resolves once `count` runs have started (at once if they already have). */
  until(count: number): Promise<void>;
}

/** `t7` → Float32Array [7]: a vector that says which text it belongs to. */
export function vectorFor(text: string): Float32Array {
  return Float32Array.of(Number(text.replace(/^\D+/, '')));
}

export function batchRuns(): BatchRuns {
  const runs: BatchRun[] = [];
  const waiters: Array<() => void> = [];
  let open = 0;
  let most = 0;
  const run = (texts: string[]): Promise<Float32Array[]> =>
    new Promise<Float32Array[]>((resolve, reject) => {
      open++;
      most = Math.max(most, open);
      const settle = (): void => {
        open--;
      };
      runs.push({
        texts,
        answer: () => (settle(), resolve(texts.map(vectorFor))),
        answerWith: (v) => (settle(), resolve(v)),
        fail: (err) => (settle(), reject(err)),
      });
      for (const w of waiters.splice(0)) w();
    });
  return {
    run,
    runs,
    maxAtOnce: () => most,
    until: (count) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (runs.length >= count) resolve();
          else waiters.push(check);
        };
        check();
      }),
  };
}

/** The numbers carried by vectors made by `vectorFor`. */
export function ids(vectors: Float32Array[]): number[] {
  return vectors.map((v) => v[0]!);
}

/** `t0` … `t{n-1}` from `from`. */
export function texts(n: number, from = 0): string[] {
  return Array.from({ length: n }, (_, i) => `t${from + i}`);
}
