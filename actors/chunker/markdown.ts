// The block structure of a note body, from markdown-it's token stream: a tree of blocks with their line ranges.
import MarkdownIt from 'markdown-it';

type Token = ReturnType<MarkdownIt['parse']>[number];

// Only block structure is needed: skipping inline parsing (links, emphasis) roughly halves parse time.
const md = new MarkdownIt('default', { html: true, linkify: false, typographer: false });
md.core.ruler.disable(['inline', 'linkify', 'replacements', 'smartquotes', 'text_join']);

/** One block-level token with its children; `map` is [first line, line after last], 0-based, in the note. */
export interface BlockNode {
  type: string; // markdown-it token type without _open: 'paragraph', 'fence', 'bullet_list', 'tr', 'inline', ...
  tag: string;
  map: [number, number] | null;
  content: string; // inline text for 'inline' tokens
  children: BlockNode[];
}

/** Parses `text` (frontmatter already blanked out, so line numbers are file line numbers). */
export function parseBlocks(text: string): BlockNode[] {
  const root: BlockNode = { type: 'root', tag: '', map: null, content: '', children: [] };
  const stack: BlockNode[] = [root];
  for (const token of md.parse(text, {}) as Token[]) {
    if (token.nesting === -1) {
      stack.pop();
      continue;
    }
    const node: BlockNode = {
      type: token.nesting === 1 ? token.type.replace(/_open$/, '') : token.type,
      tag: token.tag,
      map: token.map ? [token.map[0], token.map[1]] : null,
      content: token.content,
      children: [],
    };
    stack[stack.length - 1]!.children.push(node);
    if (token.nesting === 1) stack.push(node);
  }
  return root.children;
}

/**
 * Line ranges of text where links and tags may occur: every inline run (paragraphs, headings, table rows),
 * never code blocks, fences or raw HTML. Table cells have no map of their own, so their row's range stands in.
 */
export function inlineRanges(blocks: readonly BlockNode[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const walk = (nodes: readonly BlockNode[], enclosing: [number, number] | null): void => {
    for (const node of nodes) {
      if (node.type === 'inline') {
        const range = node.map ?? enclosing;
        const last = out[out.length - 1];
        if (range && !(last && last[0] === range[0] && last[1] === range[1])) out.push(range);
      } else {
        walk(node.children, node.map ?? enclosing);
      }
    }
  };
  walk(blocks, null);
  return out;
}
