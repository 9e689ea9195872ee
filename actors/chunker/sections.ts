// Groups a note's top-level blocks into sections, one per heading, each knowing its ancestor headings.
import { oneLine } from './frontmatter.js';
import type { BlockNode } from './markdown.js';

export interface Section {
  /** Ancestor headings and this one, outermost first; [] for the preamble before the first heading. */
  headingPath: string[];
  /** Top-level blocks under this heading, up to the next heading of any level. */
  blocks: BlockNode[];
}

/**
 * Only top-level headings open sections: a `#` line inside a list or quote is content, as in Obsidian's outline.
 * Skipped levels are fine (`#` then `###` gives a path of two); a heading pops every open one at its level or deeper.
 */
export function splitSections(blocks: readonly BlockNode[]): Section[] {
  const sections: Section[] = [{ headingPath: [], blocks: [] }];
  const open: Array<{ level: number; text: string }> = [];
  for (const block of blocks) {
    if (block.type !== 'heading') {
      sections[sections.length - 1]!.blocks.push(block);
      continue;
    }
    const level = Number(block.tag.slice(1));
    while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop();
    const inline = block.children.find((c) => c.type === 'inline');
    open.push({ level, text: oneLine(inline?.content ?? '') });
    sections.push({ headingPath: open.map((h) => h.text), blocks: [] });
  }
  return sections;
}
