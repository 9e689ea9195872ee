// What a note is about in a few lines — its title, its first heading and its description or first paragraph — for
// the note-level vector that sits beside the chunk vectors (a question about the whole note matches it best).
import { oneLine } from './frontmatter.js';
import type { BlockNode } from './markdown.js';

/** Frontmatter fields people use for a note's one-line description, first found wins. */
const DESCRIPTION_KEYS = ['description', 'summary', 'abstract'];
/** Characters kept: a sentence or three; the model reads at most its window anyway. */
const MAX_CHARS = 600;

/**
 * `title`, then the first heading when it says something the title does not, then the frontmatter description or
 * else the first paragraph (or quote) of the body, each on its own line.
 */
export function noteSummary(title: string, frontmatter: Record<string, unknown>, blocks: readonly BlockNode[]): string {
  const lines = [title];
  const heading = blocks.find((b) => b.type === 'heading');
  const headingText = heading ? inlineText(heading) : '';
  if (headingText !== '' && headingText.toLowerCase() !== title.toLowerCase()) lines.push(headingText);
  const described = DESCRIPTION_KEYS.map((k) => frontmatter[k]).find((v) => typeof v === 'string' && v.trim() !== '');
  const body = typeof described === 'string' ? oneLine(described) : firstParagraph(blocks);
  if (body !== '') lines.push(body);
  const text = lines.join('\n');
  return text.length <= MAX_CHARS
    ? text
    : text.slice(0, text.lastIndexOf(' ', MAX_CHARS) > 0 ? text.lastIndexOf(' ', MAX_CHARS) : MAX_CHARS);
}

/** The first top-level paragraph or block quote's text, markup-light (inline markup left as typed). */
function firstParagraph(blocks: readonly BlockNode[]): string {
  for (const b of blocks) {
    if (b.type === 'paragraph' || b.type === 'blockquote') {
      const text = inlineText(b);
      if (text !== '') return text;
    }
  }
  return '';
}

function inlineText(node: BlockNode): string {
  const parts: string[] = [];
  const walk = (n: BlockNode): void => {
    if (n.type === 'inline') parts.push(n.content);
    else n.children.forEach(walk);
  };
  walk(node);
  // links say where to read more, not what the note is about
  return oneLine(parts.join(' ').replace(/<?https?:\/\/[^\s>)]+>?/g, ' '));
}
