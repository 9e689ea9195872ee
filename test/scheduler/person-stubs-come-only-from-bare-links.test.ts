// Which links in an autowritten note get a person stub: bare [[Name]] only — not aliased ([[x|y]]), heading
// ([[x#h]]), path ([[a/b]]) or embedded (![[x]]) links, not links inside code, and not names no file could carry.
import t from 'tap';
import { bareNames } from '../../actors/scheduler/person-stubs.js';

t.test('bare [[Name]] links are the stub candidates', async (t) => {
  const body = [
    'With [[Sofia Marques]], [[People/Maya Chen]] and [[Tom Okafor|Tom]].',
    'See [[Atlas migration#Rollback]] and ![[diagram.png]] and [[ Jonas Berg ]].',
    '`[[Not In Code]]`, [[Sofia Marques]] again, [[]] and [[.hidden]] and [[a:b]].',
    '```',
    '[[Fenced Name]]',
    '```',
    '~~~md',
    '[[Tilde Fenced]]',
    '~~~',
    'Last: [[Lena Fischer.md]]',
  ].join('\n');
  t.same(bareNames(body), ['Sofia Marques', 'Jonas Berg', 'Lena Fischer']);
});
