// `heap:` settings: how the daemon's V8 heaps (main and one per thread) trade memory for speed (README, Memory).
import { z } from 'zod';

export const heapSchema = z
  .object({
    /**
     * V8's --optimize-for-size for every isolate of the daemon: heaps grow less before a collection and code is
     * compiled for size (~35–45 MB less resident on the example vault, idle and at the indexing peak).
     */
    optimize_for_size: z.boolean().default(true),
    /**
     * Load the gateway's MCP half (the SDK, its zod schemas, the tool listing) a second after it listens, so the first
     * MCP call after a start does not wait ~0.2–0.5 s for it; false: on the first /mcp request (~12 MB less resident
     * while no MCP client has called).
     */
    preload_mcp: z.boolean().default(false),
    /**
     * V8's --short-builtin-calls: every isolate (each actor thread and pool thread) maps its own ~0.9 MB copy of V8's
     * builtins beside its code, for shorter calls into them; false: every thread started after the daemon's start
     * calls the node binary's one copy (~9 MB less resident with ten threads, no search or indexing cost measured).
     */
    short_builtin_calls: z.boolean().default(false),
    /**
     * V8's --bytecode-old-age: how many garbage collections a function's bytecode survives unrun before V8 drops it
     * (compiled again from its source if it runs again). V8's default is 5; 1 lets idle threads drop the code they ran
     * only at start sooner (−2 to −3 MB on the example vault after 1,000 searches; perhaps 1–3 % more CPU a chunk).
     */
    bytecode_old_age: z.number().int().min(1).max(100).default(1),
  })
  .strict();
