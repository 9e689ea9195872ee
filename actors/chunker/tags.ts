// Obsidian tags: `#tag` in body text and `tags:` in frontmatter, lowercased because Obsidian matches them case-insensitively.
import type { InlineRegion } from './inline-text.js';

// Letters, digits, `_`, `-`, `/`; at least one non-digit (so `#123` stays an issue number, not a tag).
const TAG_BODY = /^[\p{L}\p{M}\p{N}_\-/]+$/u;
const HAS_NON_DIGIT = /[^\p{N}]/u;
// A tag starts a line or follows whitespace: `page#frag` in a URL, `[[a#b]]` and `&#38;` are not tags.
const INLINE_TAG = /(?<=^|\s)#([\p{L}\p{M}\p{N}_\-/]+)/gu;

/** `Project/Atlas` → `project/atlas`; null if it is not a valid tag. */
export function normalizeTag(raw: string): string | null {
  const tag = raw.trim().normalize('NFC').toLowerCase();
  if (tag === '' || !TAG_BODY.test(tag) || !HAS_NON_DIGIT.test(tag)) return null;
  return tag;
}

export function inlineTags(regions: readonly InlineRegion[]): string[] {
  const out: string[] = [];
  for (const region of regions) {
    if (!region.text.includes('#')) continue;
    for (const m of region.text.matchAll(INLINE_TAG)) {
      const tag = normalizeTag(m[1]!);
      if (tag !== null) out.push(tag);
    }
  }
  return out;
}
