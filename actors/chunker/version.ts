// The chunker's version on its own, so threads that only compare it (watcher, store writer) do not load markdown-it.

/**
 * Changes whenever the same bytes would give different chunks or metadata, so the index knows to re-chunk.
 * Format: <scheme>/<revision>.
 */
export const CHUNKER_VERSION = 'md-sections/3';
