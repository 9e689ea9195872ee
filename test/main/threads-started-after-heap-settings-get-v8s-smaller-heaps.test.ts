// heap.optimize_for_size (main/heap-settings.ts): the daemon sets V8's flag before its first thread, and a worker
// thread started after it is made with the smaller heap (a fresh thread's old space: 3.2 MB against 4.2 MB
// without). Each case runs in its own process: V8's flags are the process's.
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { heapFlags } from '../../main/heap-settings.js';

const settings = new URL('../../main/heap-settings.js', import.meta.url).href;

/** A fresh process applies the setting, then starts a real worker thread: the thread's old space in bytes. */
function oldSpaceOfNewThread(on: boolean): number {
  const script = `
    import { Worker } from 'node:worker_threads';
    import { applyHeapSettings } from ${JSON.stringify(settings)};
    applyHeapSettings({ optimize_for_size: ${on}, short_builtin_calls: true, bytecode_old_age: 5 });
    const w = new Worker(
      "const v8 = require('node:v8'); require('node:worker_threads').parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size)",
      { eval: true, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 4 } },
    );
    w.once('message', (n) => { process.stdout.write(String(n)); w.terminate(); });`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

t.test('the setting maps to V8 flags', async (t) => {
  const v8Defaults = { short_builtin_calls: true, bytecode_old_age: 5 };
  t.same(heapFlags({ optimize_for_size: true, ...v8Defaults }), ['--optimize-for-size', '--bytecode-old-age=5']);
  t.same(heapFlags({ optimize_for_size: false, ...v8Defaults }), ['--bytecode-old-age=5'], 'off: V8 as it comes');
  t.same(heapFlags({ optimize_for_size: true, short_builtin_calls: false, bytecode_old_age: 1 }), [
    '--optimize-for-size',
    '--no-short-builtin-calls',
    '--bytecode-old-age=1',
  ]);
});

t.test('a thread started after optimize_for_size is applied gets a smaller heap than one started without', async (t) => {
  const on = oldSpaceOfNewThread(true);
  const off = oldSpaceOfNewThread(false);
  t.ok(on > 0 && off > 0, `old space ${on} / ${off} bytes`);
  t.ok(on < off, `with the flag ${(on / 2 ** 20).toFixed(1)} MB, without ${(off / 2 ** 20).toFixed(1)} MB`);
});
