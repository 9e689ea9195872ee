// A read-only index connection that follows the file: a reindex swaps a new index in by a rename (and a lost file is
// made again at its path), and a connection opened before keeps reading the old inode — its stale rows, and the old
// file held on disk, deleted, as long as the connection lives. The store writer bumps `indexGeneration` on the board
// at each swap; this reopens the path on the first read after one.
import type { Board } from '../../supervisors/runtime/board.js';
import { IndexReader } from './index-reader.js';
import { openIndex } from './schema.js';

export class SwappedReader {
  #db: ReturnType<typeof openIndex>;
  #reader: IndexReader;
  #generation: number;

  constructor(
    readonly file: string,
    readonly board: Board,
    readonly opts: { userId: string; cacheMiB: number },
  ) {
    this.#generation = board.get('indexGeneration');
    this.#db = openIndex(file, { readonly: true, cacheMiB: opts.cacheMiB });
    this.#reader = new IndexReader(this.#db, { userId: opts.userId });
  }

  /** The reader of the index file now at the path (reopened if a swap happened since the last call). */
  get reader(): IndexReader {
    this.follow();
    return this.#reader;
  }

  /** Reopens now if a swap happened since (main asks after a reindex: an idle reader let go of the old file). */
  follow(): void {
    const g = this.board.get('indexGeneration');
    if (g !== this.#generation) {
      this.#db.close();
      this.#generation = g;
      this.#db = openIndex(this.file, { readonly: true, cacheMiB: this.opts.cacheMiB });
      this.#reader = new IndexReader(this.#db, { userId: this.opts.userId });
    }
  }
}
