// Offsets ↔ line numbers for one note's text, so every piece of a chunk can say which file lines it came from.

export class LineIndex {
  readonly #starts: number[];
  readonly #length: number;

  constructor(text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.#starts = starts;
    this.#length = text.length;
  }

  get lineCount(): number {
    return this.#starts.length;
  }

  /** Offset of the first character of 0-based `line`. */
  start(line: number): number {
    return this.#starts[line] ?? this.#length;
  }

  /** Offset just past the last character of 0-based `line` (its `\n` or the end of text). */
  end(line: number): number {
    const next = this.#starts[line + 1];
    return next === undefined ? this.#length : next - 1;
  }

  /** 0-based line holding `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
