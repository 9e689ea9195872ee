// The `heap:` settings, applied where the daemon starts and before its first worker thread: V8's flags are the
// process's, and each isolate reads its heap flags when it is made, so one call here holds for every actor thread and
// embedding pool thread this process starts (and for main's own heap, which reads the flag as it runs).
import v8 from 'node:v8';
import type { Config } from '../config/load.js';

type HeapFlagSettings = Pick<Config['heap'], 'optimize_for_size' | 'short_builtin_calls' | 'bytecode_old_age'>;

/** The V8 flags the settings ask for. */
export function heapFlags(heap: HeapFlagSettings): string[] {
  return [
    ...(heap.optimize_for_size ? ['--optimize-for-size'] : []),
    ...(heap.short_builtin_calls ? [] : ['--no-short-builtin-calls']),
    `--bytecode-old-age=${heap.bytecode_old_age}`,
  ];
}

/**
 * Sets the flags for this process, for good: a later daemon in the same process (tests) cannot unset them. V8 calls
 * flags changed after start-up unsupported in general; these are read when an isolate is made (--short-builtin-calls:
 * main's own isolate, made already, keeps its copy of the builtins) or at each heap decision, and the daemon-rss bench
 * measures their effect on a real daemon.
 */
export function applyHeapSettings(heap: HeapFlagSettings): void {
  for (const f of heapFlags(heap)) v8.setFlagsFromString(f);
}
