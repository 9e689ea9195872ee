// README, Fact syntax: keys are predicates, read as snake_case (`Works-At` → `works_at`). memory_facts compared its
// `predicate` as given, so an agent asking for "Works-At" (as a person writes the key) got no facts and no error.
// It now reads the argument the way the notes' keys are read. A real daemon over HTTP.
import t from 'tap';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

t.test('memory_facts reads its predicate as the notes keys are read', async (t) => {
  const s = await startToolDaemon({ 'People/Ana.md': '# Ana\n\n## Facts\n\n- Works-At:: Acme\n- likes:: tea\n' });
  t.teardown(() => s.stop());
  for (const predicate of ['works_at', 'Works-At', 'WORKS_AT', ' works-at ']) {
    const r = await s.d.tool('memory_facts', { entity: 'Ana', predicate });
    t.equal(r.status, 200, JSON.stringify(r.body));
    t.same(
      r.body.facts.map((f: { predicate: string; object: string }) => [f.predicate, f.object]),
      [['works_at', 'Acme']],
      JSON.stringify(predicate),
    );
  }
});
