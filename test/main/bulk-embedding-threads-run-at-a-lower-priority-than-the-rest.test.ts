// The bulk pool's threads run niced (embedder.nice, Linux), so a backlog being embedded yields the CPU to searches,
// agents' writes and the daemon's own threads; the query pool and everything else keep the normal priority.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { EmbedPools } from '../../main/embed-pools.js';
import type { EmbedTask } from '../../actors/embedder/pool-task.js';

/** Niceness of every thread of this process, by thread id (field 19 of /proc/<pid>/task/<tid>/stat). */
function niceness(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (comm) "
      out.set(Number(tid), Number(fields[16]));
    } catch {
      // a thread that ended meanwhile
    }
  }
  return out;
}

t.test('only the bulk pool threads are niced', { skip: process.platform !== 'linux' && 'niceness per thread is Linux only' }, async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-nice-'));
  const pools = new EmbedPools(2, 10);
  t.teardown(async () => {
    await pools.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const settings: EmbedTask['settings'] = { kind: 'use-lite', cacheDir: path.join(dir, 'models'), quantize: 'fp32' };
  const before = niceness();
  t.same(
    [...before.values()].filter((n) => n !== 0),
    [],
    'nothing is niced before the pools start',
  );

  const q = await pools.run('query', { settings, texts: ['a query'] });
  t.ok(q.ok, 'the query pool answers');
  t.same(
    [...niceness().values()].filter((n) => n !== 0),
    [],
    'the query pool thread keeps the normal priority',
  );

  // more than 4 texts each: a smaller task would borrow the loaded query thread instead (embed-pools.ts)
  const five = (w: string): string[] => Array.from({ length: 5 }, (_, i) => `${w} ${i}`);
  const b = await Promise.all([pools.run('bulk', { settings, texts: five('one') }), pools.run('bulk', { settings, texts: five('two') })]);
  t.ok(
    b.every((o) => o.ok),
    'the bulk pool answers',
  );
  const after = niceness();
  const niced = [...after].filter(([tid, n]) => n === 10 && !before.has(tid));
  t.ok(niced.length >= 2, `both bulk threads (and any they started) run at nice 10 (${niced.length} threads)`);
  t.equal(after.get(process.pid), 0, 'the main thread keeps the normal priority');
  t.same(
    [...after.values()].filter((n) => n !== 0 && n !== 10),
    [],
    'no other priority anywhere',
  );
});
