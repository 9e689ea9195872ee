// The fact log's day files are named by the local date (a person reads the log in their own time), but
// memory_context chose the first day of its `dated` section by the UTC date: west of UTC in the evening (local date
// behind UTC's) today's log fell out of a one-day window, and east of UTC in the morning yesterday's came in. Now the
// days are counted on the local calendar. The daemon runs in a zone chosen from the current UTC hour so that the local
// date differs from UTC's for the whole run (UTC-12 before noon UTC, UTC+14 after).
const hour = new Date().getUTCHours();
process.env.TZ = hour < 12 ? 'Etc/GMT+12' : 'Etc/GMT-14';

import t from 'tap';
import { localDay } from '../../actors/memory/fact-log.js';
import { daemonOn } from '../helpers/daemon.js';

t.test('the prompt context counts its days of the fact log on the local calendar', async (t) => {
  const now = new Date();
  const today = localDay(now.getTime()).date;
  t.not(today, now.toISOString().slice(0, 10), `the local date (${process.env.TZ}) is not the UTC date`);
  const yesterday = localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12).getTime()).date;
  const { d } = await daemonOn(
    t,
    { 'Inbox/Seed.md': '# Seed\n', [`Memory/Log/${yesterday}.md`]: `# ${yesterday}\n\n## 10:00 — person\n- Carol visited Oslo\n` },
    'knowledge:\n  context: { auto_load_days: 1 }\n',
  );
  const r = await d.tool('memory_remember', { content: 'Carol lives in Lisbon', wait_indexed: true });
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.equal(r.body.path, `Memory/Log/${today}.md`, "today's log, by the local date");

  const ctx = await d.tool('memory_context', {});
  t.equal(ctx.status, 200, JSON.stringify(ctx.body));
  const dated = ctx.body.sections.find((x: { name: string }) => x.name === 'dated').items.map((i: { text: string }) => i.text);
  t.same(dated, [`- [${today}] Carol lives in Lisbon`], "one day: today's log, not yesterday's");
});
