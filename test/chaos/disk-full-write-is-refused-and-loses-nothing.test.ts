// A vault write on a full disk is refused as `disk_full` with nothing half-written, no commit and git sound; a
// person's write cut short is indexed as it is on disk, and everything goes through once space is freed.
import t from 'tap';
import { runDiskFull } from './disk-full.js';

// the vault goes on its own small tmpfs, which needs root (`mount -t tmpfs`)
const root = process.getuid?.() === 0;

t.test(
  'a write on a full disk is refused as disk_full and loses nothing',
  { skip: root ? false : 'needs root to mount a small tmpfs' },
  async (t) => {
    const r = await runDiskFull();
    t.ok(r.checks.length >= 15, `ran ${r.checks.length} checks`);
    for (const c of r.checks) t.ok(c.ok, `${c.name}: ${c.detail}`);
    t.same(r.problems, [], 'no problems');
  },
);
