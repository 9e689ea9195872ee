// Prompt context assembly as a pure function: sections in a fixed order (USER.md, known facts, CHANNEL.md, dated
// memories, recalled memories), each item with its source, cut to a character budget by dropping, in this order,
// recalled memories, facts, then dated memories — last items first; USER.md and CHANNEL.md are always kept.

export type SectionName = 'user' | 'facts' | 'channel' | 'dated' | 'recalled';

/** The order sections appear in. */
export const SECTION_ORDER: readonly SectionName[] = ['user', 'facts', 'channel', 'dated', 'recalled'];
/** The order sections give way when over the budget; the others are never cut. */
export const DROP_ORDER: readonly SectionName[] = ['recalled', 'facts', 'dated'];

export interface ContextItem {
  text: string;
  /** Where it came from: a vault path (with `:line` for a fact), or a fact log id. */
  source: string;
}

export interface ContextSection {
  name: SectionName;
  title: string;
  items: ContextItem[];
}

export interface AssembledContext {
  /** The sections as a prompt: `## title` then the items, sections apart by a blank line. */
  text: string;
  chars: number;
  maxChars: number;
  sections: Array<{ name: SectionName; title: string; items: ContextItem[]; dropped: number }>;
  /** Items dropped to fit, by section. */
  truncated: boolean;
}

function render(sections: ReadonlyArray<{ title: string; items: readonly ContextItem[] }>): string {
  return sections
    .filter((s) => s.items.length > 0)
    .map((s) => `## ${s.title}\n${s.items.map((i) => i.text.trimEnd()).join('\n')}`)
    .join('\n\n');
}

/** Orders `sections` and drops items until the text fits `maxChars` (or only USER.md and CHANNEL.md are left). */
export function assembleContext(sections: readonly ContextSection[], maxChars: number): AssembledContext {
  const kept = SECTION_ORDER.flatMap((name) => sections.filter((s) => s.name === name)).map((s) => ({
    name: s.name,
    title: s.title,
    items: [...s.items],
    dropped: 0,
  }));
  let text = render(kept);
  for (const name of DROP_ORDER) {
    const section = kept.find((s) => s.name === name);
    while (text.length > maxChars && section && section.items.length > 0) {
      section.items.pop();
      section.dropped++;
      text = render(kept);
    }
  }
  return {
    text,
    chars: text.length,
    maxChars,
    sections: kept.filter((s) => s.items.length > 0 || s.dropped > 0),
    truncated: kept.some((s) => s.dropped > 0),
  };
}
