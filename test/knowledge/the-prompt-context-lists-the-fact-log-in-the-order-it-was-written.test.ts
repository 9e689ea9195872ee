// memory_context's dated memories are the fact log of the last days as it was written — by day, then by line — so an
// update follows the fact it changes and a model reading the prompt can tell which is newer (they were in the order
// of their ids' hashes: "Carol moved to Madrid" came before "Carol lives in Oslo"). A fact remembered again with a tag
// is one fact of two lines: each line stands where it was written.
import t from 'tap';
import { startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';

t.test('the prompt context lists the fact log in the order it was written', async (t) => {
  const s = await startToolDaemon({ 'Inbox/Seed.md': '# Seed\n' });
  t.teardown(() => s.stop());
  const d = s.d;
  // their ids' hashes sort Madrid, Oslo, Paris: the order of writing is none of that
  for (const content of ['Carol lives in Oslo', 'Carol moved to Madrid', 'Carol moved to Paris'])
    t.equal((await d.tool('memory_remember', { content, wait_indexed: true })).status, 200);
  // the first fact again with a tag, after the others: one fact of two lines, each in its place
  t.equal((await d.tool('memory_remember', { content: 'Carol lives in Oslo', tags: ['home'], wait_indexed: true })).status, 200);

  const ctx = await d.tool('memory_context', {});
  t.equal(ctx.status, 200, JSON.stringify(ctx.body));
  const dated = ctx.body.sections.find((x: { name: string }) => x.name === 'dated');
  t.same(
    dated.items.map((i: { text: string }) => i.text.replace(/^- \[\d{4}-\d{2}-\d{2}\] /, '')),
    ['Carol lives in Oslo', 'Carol moved to Madrid', 'Carol moved to Paris', 'Carol lives in Oslo #home'],
  );
  const text = ctx.body.text as string;
  t.ok(text.indexOf('Oslo') < text.indexOf('Madrid') && text.indexOf('Madrid') < text.indexOf('Paris'), 'and so reads the text');
});
