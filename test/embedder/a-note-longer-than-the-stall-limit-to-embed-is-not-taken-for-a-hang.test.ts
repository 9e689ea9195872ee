// A note whose chunks take the model longer than the stall watchdog's limit is work in progress, not a hang: the
// embedder reports each finished batch, so it is not restarted, and the note is not dropped as poison (which
// marked it failed and left it out of the index on a slow or busy machine).
import t from 'tap';
import { daemonOn } from '../helpers/daemon.js';

const STALL_MS = 1_000; // the embedder's limit is 2× this; the other actors' 1×

function bigNote(): string {
  // ~300 sections of ~90 words: ~300 chunks in 4-text batches on one model thread, seconds of model time in all
  return Array.from(
    { length: 300 },
    (_, i) =>
      `## Section ${i}\n\n${Array.from({ length: 9 }, (_, k) => `Tidal ledger ${i} line ${k} records the harbour keeper's count of boats and nets.`).join(' ')}\n`,
  ).join('\n');
}

t.test('embedding a long note reports progress: no stall, no restart, the note is indexed', { timeout: 300_000 }, async (t) => {
  const { v, d } = await daemonOn(
    t,
    { 'Inbox/small.md': '# Small\n\nA short note so the daemon starts with the model loaded.\n' },
    `embedder:\n  threads: 1\n  batch_size: 4\nsupervisor:\n  stall_ms: ${STALL_MS}\n`,
  );
  const exits: string[] = [];
  d.daemon.onSupervisor((e) => {
    // the embedder, whose model time is what runs past the limit: the others on the note's path do one step each
    // under the same tight 1 s (the embedder's is 2×), which a loaded machine can exceed with no hang at all (CI run
    // 113 at load 20: the chunker took over 1 s to chunk the 300 sections), and a slow git commit is another matter
    if (e.type === 'supervisor.child_exited' && e.child === 'embedder') exits.push(`${e.child}: ${JSON.stringify(e.exit)}`);
  });
  const started = performance.now();
  const done = d.daemon.nextDone('Inbox/big.md');
  v.write('Inbox/big.md', `# Big\n\n${bigNote()}`);
  const msg = await done;
  const ms = performance.now() - started;
  t.equal(msg.outcome, 'indexed', `the note is indexed (took ${Math.round(ms)} ms)`, { exits });
  t.ok(ms > 2 * STALL_MS, 'the embedding took longer than the stall limit (else this test proves nothing)');
  t.same(exits, [], 'the embedder was not stalled or restarted');
  const s = (await d.api('GET', '/v1/status')).body.index;
  t.equal(s.vectors, s.chunks, 'every chunk has its vector');
});
