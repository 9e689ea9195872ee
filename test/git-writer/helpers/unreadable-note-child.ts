// Run by a-note-its-owner-cannot-read-does-not-hold-back-the-other-edits.test.ts as a user without root's power to
// read any file (nobody, when the test runs as root): a person's batch where one note is chmod 000.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GitRepo } from '../../../actors/git-writer/git-repo.js';

const dir = process.argv[2]!;
const put = (rel: string, text: string) => writeFileSync(path.join(dir, rel), text);
put('a.md', '# A\n');
put('locked.md', '# Locked\n');
const warnings: string[] = [];
const opened = await GitRepo.open(dir, {
  author: { name: 'memvault', email: 'memvault@localhost' },
  person: { name: 'Ada Person', email: 'ada@example.org' },
  onWarning: (m) => warnings.push(m),
});
if (!(opened instanceof GitRepo)) throw new Error(opened.message);
put('a.md', '# A\n\nedited\n');
put('b.md', '# B\n');
put('locked.md', '# Locked\n\nedited, then locked\n');
chmodSync(path.join(dir, 'locked.md'), 0o000);
const result = await opened.commitHumanChanges(['a.md', 'b.md', 'locked.md']);
process.stdout.write(JSON.stringify({ result, warnings }));
