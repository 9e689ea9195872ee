// Obsidian wikilinks in body text: [[t]], [[t|alias]], [[t#heading]], [[#heading]], ![[embed]], with their line.
import type { WikiLink } from '../../messages/common.js';
import type { InlineRegion } from './inline-text.js';
import type { LineIndex } from './line-index.js';

const WIKILINK = /(!?)\[\[([^[\]\n]*)\]\]/g;

export function wikiLinks(regions: readonly InlineRegion[], lines: LineIndex): WikiLink[] {
  const out: WikiLink[] = [];
  for (const region of regions) {
    if (!region.text.includes('[[')) continue;
    for (const m of region.text.matchAll(WIKILINK)) {
      const link = readLink(m[2]!, m[1] === '!', lines.lineOf(region.offset + m.index) + 1);
      if (link) out.push(link);
    }
  }
  return out;
}

function readLink(inner: string, embed: boolean, line: number): WikiLink | null {
  const bar = inner.indexOf('|');
  // Inside a table the alias bar is written `\|`; the backslash belongs to the escape, not the target.
  const ref = bar < 0 ? inner : inner.slice(0, bar).replace(/\\$/, '');
  const alias = bar < 0 ? '' : inner.slice(bar + 1).trim();
  const hash = ref.indexOf('#');
  const target = (hash < 0 ? ref : ref.slice(0, hash)).trim().replace(/\.md$/i, '');
  const heading = hash < 0 ? '' : ref.slice(hash + 1).trim();
  if (target === '' && heading === '') return null;
  const link: WikiLink = { target, embed, line };
  if (heading !== '') link.heading = heading;
  if (alias !== '') link.alias = alias;
  return link;
}
