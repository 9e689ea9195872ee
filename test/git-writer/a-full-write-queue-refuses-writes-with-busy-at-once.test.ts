// writes.max_queue bounds the writes waiting for the git writer: past it a write or undo is refused at once with
// `busy` (503, Retry-After) instead of queueing toward the timeout, and every write that was acknowledged is committed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { git, type HttpAnswer, daemonOn } from '../helpers/daemon.js';

interface Answer extends HttpAnswer {
  ms: number;
}

t.test('a flood of writes against max_queue 2: some busy at once, none time out, every ok is committed', async (t) => {
  const { v, d } = await daemonOn(t, { 'Inbox/seed.md': '# Seed\n\nfirst note\n' }, 'writes:\n  max_queue: 2\n');

  const post = async (tool: string, args: Record<string, unknown>, agent: string): Promise<Answer> => {
    const t0 = performance.now();
    const r = await d.tool(tool, args, agent);
    return { ...r, ms: performance.now() - t0 };
  };
  const n = 60;
  const content = (i: number) => `# Flood ${i}\n\nwrite number ${i} of the flood\n`;
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) => post('vault_write', { path: `Inbox/flood/n${i}.md`, content: content(i) }, `agent-${i % 8}`)),
  );

  const ok = answers.map((a, i) => ({ a, i })).filter(({ a }) => a.status === 200);
  const busy = answers.filter((a) => a.status === 503 && a.body.error?.reason === 'busy');
  const other = answers.filter((a) => a.status !== 200 && !(a.status === 503 && a.body.error?.reason === 'busy'));
  t.same(
    other.map((a) => a.body),
    [],
    'every write either succeeded or was refused as busy (none timed out or failed otherwise)',
  );
  t.ok(busy.length > 0, `some writes were refused as busy (${busy.length} of ${n})`);
  t.ok(ok.length >= 2, `the queue's worth got through (${ok.length} of ${n})`);
  const b = busy[0]!;
  t.match(
    b.body.error.message,
    /write queue is full: \d+ writes are already waiting .*max_queue 2.*retry/,
    'the message says how many are queued and to retry',
  );
  t.ok(b.retryAfter !== null && Number(b.retryAfter) > 0, 'a busy refusal carries Retry-After');
  t.ok(Math.max(...busy.map((a) => a.ms)) < 5_000, 'busy is answered at once, not after waiting in line');

  const log = git(v.dir, 'log', '--format=%H');
  for (const { a, i } of ok) {
    t.ok(log.includes(a.body.commit), `write ${i} is in history (${a.body.commit})`);
    t.equal(git(v.dir, 'show', `${a.body.commit}:Inbox/flood/n${i}.md`), content(i), `its commit holds what was written`);
    t.equal(readFileSync(path.join(v.dir, `Inbox/flood/n${i}.md`), 'utf8'), content(i), 'and it is on disk');
  }
  for (let i = 0; i < n; i++)
    if (answers[i]!.status !== 200)
      t.throws(() => readFileSync(path.join(v.dir, `Inbox/flood/n${i}.md`)), `refused write ${i} left nothing behind`);

  // once the queue has drained, writes and undos are accepted again
  const later = await post('vault_write', { path: 'Inbox/after.md', content: '# After\n\nthe flood is over\n' }, 'agent-0');
  t.equal(later.status, 200, 'a write after the flood is accepted');
  const undo = await post('vault_undo_last', {}, 'agent-0');
  t.equal(undo.status, 200, 'and so is an undo');
  git(v.dir, 'fsck', '--strict');
});
