// The text the model embeds for a question, with its scaffolding ("how do I", "what is the way to") taken off: the
// bm25 half drops such words as stop words already; this tries the same for the vector half (Ranking.stripQuestion).

const SCAFFOLD =
  /^\s*(?:(?:how|where|when)\s+(?:do|can|could|should|would|might)\s+(?:i|we|you|one)|how\s+to|what(?:'s|\s+is)\s+(?:the\s+)?(?:best\s+|right\s+|easiest\s+)?(?:way|command|tool)\s+to|is\s+there\s+(?:a|any)\s+(?:way|command|tool)\s+to|(?:can|could)\s+(?:i|we|you)|i\s+(?:want|need|would\s+like)\s+to|(?:please\s+)?(?:help\s+me|show\s+me\s+how\s+to))\s+/i;

/** `query` without a leading question scaffold and a trailing "?"; the query itself when nothing would remain. */
export function vectorText(query: string): string {
  const rest = query
    .replace(SCAFFOLD, '')
    .replace(/\s*\?+\s*$/, '')
    .trim();
  return rest.length > 0 ? rest : query;
}
