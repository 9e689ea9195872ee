// The recall log and the audit trail keep the day's file open between lines; a line never goes to a file that is no
// longer at its path (deleted or replaced by hand), and the next day gets its own file.
import { mkdtempSync, readFileSync, rmSync, renameSync, writeFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { DayFileWriter } from '../../actors/gateway/day-files.js';

t.test('lines follow the day file through deletes, replacements and a new day', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-dayfiles-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, 'recall');
  const w = new DayFileWriter(dir, 10);
  t.teardown(() => w.close());
  const file = (day: string) => path.join(dir, `${day}.jsonl`);
  const lines = (day: string) => readFileSync(file(day), 'utf8').split('\n').filter(Boolean);

  await w.append('2026-11-27', 'a\n');
  await w.append('2026-11-27', 'b\n');
  t.same(lines('2026-11-27'), ['a', 'b'], 'appended in order');

  rmSync(file('2026-11-27'));
  await w.append('2026-11-27', 'c\n');
  t.same(lines('2026-11-27'), ['c'], 'after a delete the next line is in a new file at the path');

  writeFileSync(`${file('2026-11-27')}.new`, 'x\n');
  renameSync(`${file('2026-11-27')}.new`, file('2026-11-27'));
  await w.append('2026-11-27', 'd\n');
  t.same(lines('2026-11-27'), ['x', 'd'], 'after a replacement it goes to the file now at the path');

  rmSync(dir, { recursive: true });
  await w.append('2026-11-27', 'e\n');
  t.same(lines('2026-11-27'), ['e'], 'the folder is made again when it went');

  await w.append('2026-11-28', 'f\n');
  t.same(lines('2026-11-28'), ['f'], 'a new day, a new file');
  t.same(lines('2026-11-27'), ['e'], 'the day before is left as it was');
  t.same(readdirSync(dir).sort(), ['2026-11-27.jsonl', '2026-11-28.jsonl']);
});
