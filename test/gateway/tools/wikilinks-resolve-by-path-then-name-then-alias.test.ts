// Link resolution follows Obsidian: the exact path (with or without .md, case-insensitive), then a unique file
// name or path suffix, then a unique frontmatter alias; anything else is unresolved with the reason.
import t from 'tap';
import type { WikiLink } from '../../../messages/common.js';
import { LinkGraph, type GraphNote } from '../../../actors/gateway/tools/link-graph.js';

const note = (path: string, links: string[] = [], aliases: string[] = [], sensitive = false): GraphNote => ({
  path,
  title: path,
  links: links.map((target, i): WikiLink => ({ target, embed: false, line: i + 1 })),
  aliases,
  sensitive,
});

t.test('targets resolve by path, name, suffix and alias, in that order', async (t) => {
  const g = new LinkGraph([
    note('Projects/Atlas.md', [], ['Ledger move']),
    note('People/Maya Chen.md', [], ['Maya']),
    note('Daily/Notes.md'),
    note('Archive/Notes.md'),
    note('Archive/2024/Plan.md'),
    note('Maya.md'),
    note('Shared/Alias.md', [], ['twice']),
    note('Other/Alias2.md', [], ['twice']),
    note('Meetings/Standup 2024.05.12.md'),
  ]);
  t.same(g.resolve('Projects/Atlas'), { ok: true, path: 'Projects/Atlas.md', via: 'path' });
  t.same(g.resolve('projects/atlas.md'), { ok: true, path: 'Projects/Atlas.md', via: 'path' }, 'case-insensitive, with .md');
  t.same(g.resolve('Atlas'), { ok: true, path: 'Projects/Atlas.md', via: 'name' });
  t.same(g.resolve('maya chen'), { ok: true, path: 'People/Maya Chen.md', via: 'name' });
  t.same(g.resolve('2024/Plan'), { ok: true, path: 'Archive/2024/Plan.md', via: 'name' }, 'a unique path suffix');
  t.same(g.resolve('ledger MOVE'), { ok: true, path: 'Projects/Atlas.md', via: 'alias' });
  t.same(g.resolve('Maya'), { ok: true, path: 'Maya.md', via: 'path' }, "a note's own name beats another note's alias");
  t.same(g.resolve('Notes'), { ok: false, reason: 'ambiguous', candidates: ['Archive/Notes.md', 'Daily/Notes.md'] });
  t.same(g.resolve('twice'), { ok: false, reason: 'ambiguous', candidates: ['Other/Alias2.md', 'Shared/Alias.md'] });
  t.same(g.resolve('diagram.png'), { ok: false, reason: 'attachment' });
  t.same(
    g.resolve('Standup 2024.05.12'),
    { ok: true, path: 'Meetings/Standup 2024.05.12.md', via: 'name' },
    'dots in a name are not an extension',
  );
  t.same(g.resolve('Minutes 2024.06.01'), { ok: false, reason: 'missing' });
  t.same(g.resolve('Nowhere'), { ok: false, reason: 'missing' });
});

t.test('backlinks collect the notes whose links resolve here, not self-links', async (t) => {
  const g = new LinkGraph([
    note('A.md', ['B', 'A', 'Missing']),
    note('Sub/B.md', ['A.md', 'b-alias']),
    note('C.md', ['sub/b'], ['b-alias']),
  ]);
  t.same(
    (g.backlinks.get('Sub/B.md') ?? []).map((b) => b.from),
    ['A.md', 'C.md'],
  );
  t.same(
    (g.backlinks.get('A.md') ?? []).map((b) => b.from),
    ['Sub/B.md'],
    'A → A is not a backlink',
  );
  t.same(
    (g.backlinks.get('C.md') ?? []).map((b) => b.from),
    ['Sub/B.md'],
    'by alias',
  );
});
