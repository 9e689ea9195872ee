// How large a worker thread's V8 heap may grow: every thread the daemon starts (actors, pool threads, the gateway's
// keyword thread) is started with these limits.

/**
 * Young generation (MiB) of each worker thread's V8 heap (actors, pool threads, the keyword thread): V8 lets it grow to 3 × 16 MiB
 * per thread under allocation; at 8 the daemon's threads together held ~27 MB less after indexing than uncapped, at
 * 4 another 20–35 MB less once idle and ~12 MB less at the peak (bench/daemon-rss.ts; README, Memory).
 */
export const WORKER_YOUNG_MB = 4;
