// A person edits a note an agent just wrote, and the agent asks to undo its write before memvault has committed the
// person's edit (it waits for a quiet period). The undo commits the person's edit first, as theirs, and then refuses
// as for any later change — it no longer says to "commit them first", which nobody but memvault does.
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { daemonOn, git } from '../helpers/daemon.js';

t.test("an undo commits a person's uncommitted edit first, then weighs it as a later change", async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/seed.md': '# Seed\n' }, 'writes:\n  human_quiet_ms: 600000\n');
  const w = await d.tool('vault_write', { path: 'Inbox/plan.md', content: '# Plan\n\nfrom the agent\n' }, 'planner');
  t.equal(w.status, 200);
  appendFileSync(path.join(v.dir, 'Inbox/plan.md'), 'and a line the person added\n');

  const u = await d.tool('vault_undo_last', {}, 'planner');
  t.equal(u.status, 409);
  t.match(u.body.error, { reason: 'conflict', message: /Inbox\/plan\.md changed since; nothing was changed — undo the later changes/ });
  t.notMatch(u.body.error.message, /uncommitted/);
  t.equal(git(v.dir, 'log', '-1', '--format=%an').trim(), 'vault owner', "the person's edit is committed, as theirs");
  t.equal(git(v.dir, 'status', '--porcelain').trim(), '', 'the tree is clean');
  t.equal(
    readFileSync(path.join(v.dir, 'Inbox/plan.md'), 'utf8'),
    '# Plan\n\nfrom the agent\nand a line the person added\n',
    'both texts kept',
  );
});
