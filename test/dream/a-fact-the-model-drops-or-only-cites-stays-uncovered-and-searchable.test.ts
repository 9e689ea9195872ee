// Coverage, not trust: a fact is covered only when a page in the zones cites its id in `sources:` and holds its
// content. A fact the model left out, or cited without writing down, is uncovered — the fidelity check: every fact
// of the batch is either on a page that holds its content or left as a log fact.
import t from 'tap';
import { coverageOf, holds, zonePages } from '../../actors/dream/coverage.js';
import { LogDays } from '../../actors/dream/log-days.js';
import { memoryPaths } from '../../actors/memory/paths.js';
import { dreamRig, page } from './helpers/rig.js';

t.test('a dropped fact and a cited-but-unwritten fact are uncovered; the rest are on their pages', async (t) => {
  const facts = ['Jonas starts on 1 December', 'Jonas joins the data team', 'Jonas needs a laptop ordered', 'Jonas is vegetarian'];
  const r = await dreamRig(t, { start: '2026-11-25T10:00:00Z', days: { '2026-11-24': facts } });
  const ids = facts.map((f) => r.id('2026-11-24', f));
  r.llm.script(
    {
      toolCalls: [
        {
          name: 'vault_write',
          arguments: {
            // cites the laptop fact without writing it down; never mentions the last one
            path: 'Memory/Wiki/Jonas.md',
            content: page(ids.slice(0, 3), '# Jonas\n\nJonas starts on 1 December and joins the data team.'),
          },
        },
      ],
    },
    { content: 'ok' },
  );
  const res = await r.cycle.tick({ requested: true });
  t.match(res, { outcome: 'consolidated' });
  if (res.outcome !== 'consolidated') return;
  t.same(res.covered, ids.slice(0, 2));
  t.same(res.uncovered, ids.slice(2));
  t.same(res.cited_only, [ids[2]]);
  t.match(r.read('Memory/log.md'), 'covered=2 uncovered=2');

  // the fidelity check, from the disk: every batch fact is on a citing page that holds it, or uncovered
  const pages = await zonePages(r.v.dir, ['Memory/Wiki']);
  const batch = await new LogDays(r.v.dir, memoryPaths('Memory')).batch(['2026-11-24']);
  t.equal(batch.length, 4);
  const cov = coverageOf(
    pages,
    batch.map((f) => ({ factId: f.factId, content: f.content })),
  );
  for (const f of batch) {
    const onPage = pages.some((p) => p.sources.includes(f.factId) && holds(p.text, f.content));
    t.ok(onPage || cov.uncovered.includes(f.factId), `${f.content}: covered by its page or left a log fact`);
    t.equal(cov.covered.includes(f.factId), onPage);
  }
});
