// Agents remembering one fact at once with other tags (one document of every copy) each wait, with wait_indexed, for
// their own line: the answer says indexed once search finds that line. It used to wait for a hash of the document's
// lines as the log held them just after its append; copies appended meanwhile were indexed together with it, so the
// document never held that hash and the call waited the whole 15 s to answer `indexed: false`.
import t from 'tap';
import { daemonOn } from '../helpers/daemon.js';

t.test('copies of one fact remembered at once each answer indexed once their line is', async (t) => {
  const { d } = await daemonOn(t, { 'Inbox/Seed.md': '# Seed\n' });
  const tags = Array.from({ length: 12 }, (_, i) => `kiln${i}`);
  // one tag twice: the same line again is indexed as the earlier copy of it
  const started = performance.now();
  const answers = await Promise.all(
    [...tags, 'kiln0'].map((tag, i) =>
      d.tool('memory_remember', { content: 'The glaze kiln runs hot', tags: [tag], wait_indexed: true }, `agent-${i}`),
    ),
  );
  const ms = performance.now() - started;
  t.same(
    answers.map((a) => a.status),
    answers.map(() => 200),
  );
  t.equal(new Set(answers.map((a) => a.body.fact_id)).size, 1, 'one fact');
  t.same(
    answers.map((a) => a.body.indexed),
    answers.map(() => true),
    'every call answers indexed: true',
  );
  t.ok(ms < 10_000, `no call waited for the timeout (${Math.round(ms)} ms)`);
  for (const tag of tags) {
    const hit = (await d.search(tag, { mode: 'bm25', filters: { source_type: 'fact' } })).results[0];
    t.match(hit?.snippet, `#${tag}`, `found by ${tag} at its own line`);
  }
});
