// What the dream answers over the wire (GET /v1/dream, POST /v1/consolidate, memvault undo --run): plain data,
// declared next to the cycle that makes it and re-exported here for the protocols.
import type { Failure } from './common.js';

export type { DreamStatus, TickResult } from '../actors/dream/cycle.js';
export type { UndoRunResult } from '../actors/git-writer/dream-writes.js';

/** The dream does not run: writes are off, or no LLM is configured. */
export type DreamUnavailable = Failure<'unavailable'>;
