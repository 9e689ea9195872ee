// Person stubs: after a skill writes a note, every bare [[Name]] in its body that leads to no note gets
// `People/Name.md` (type: person, name, stub: true, autowritten_by: memvault), so the link goes somewhere and the
// person-profile skill can fill it later. Aliased ([[x|y]]), heading ([[x#h]]), path ([[a/b]]) and embedded links
// are left alone, as are names no file could carry. Only when People is writable; a failure is logged, never fatal.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/load.js';
import { LinkGraphCache } from '../gateway/tools/link-graph.js';
import type { IndexView } from '../gateway/index-view.js';
import { noteRef } from './context.js';
import type { Autonomy, SkillWriter, WriteOutcome } from './writer.js';

const WIKILINK = /(!?)\[\[([^[\]\n]*)\]\]/g;
const FENCE = /^(```|~~~)/;
// characters no note name may hold on some system Obsidian runs on
const BAD_NAME = /[\\/:*?"<>|#^[\]]|^\.|^\s|\s$/;

/** The bare [[Name]] targets of `body`, outside code fences and inline code, each once. */
export function bareNames(body: string): string[] {
  const out = new Set<string>();
  let inFence = false;
  for (const line of body.split('\n')) {
    if (FENCE.test(line.trim())) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(WIKILINK)) {
      const inner = m[2]!.trim();
      if (m[1] === '!' || inner.includes('|') || inner.includes('#') || inner.includes('/') || inner === '') continue;
      const name = inner.replace(/\.md$/i, '').normalize('NFC');
      if (!BAD_NAME.test(name) && name.length <= 120) out.add(name);
    }
  }
  return [...out];
}

export class PersonStubs {
  readonly #graph: LinkGraphCache;

  constructor(
    readonly cfg: Config,
    view: IndexView,
    readonly writer: () => SkillWriter,
    readonly now: () => number,
  ) {
    this.#graph = new LinkGraphCache(view);
  }

  /** Stubs for the bare links of a note just written at `source`; none at low autonomy (the note waits in Inbox/). */
  async after(note: { path: string; body: string; skill: string; autonomy: Autonomy }): Promise<WriteOutcome[]> {
    const c = this.cfg;
    if (!c.skills.person_stubs.enabled || note.skill === 'person_stub' || note.autonomy === 'low') return [];
    if (!c.writes.allowlist.includes('People')) return [];
    const graph = this.#graph.get();
    const out: WriteOutcome[] = [];
    for (const name of bareNames(note.body)) {
      const target = `People/${name}.md`;
      if (graph.resolve(name).ok || existsSync(path.join(c.vault, 'People', `${name}.md`))) continue;
      const key = `stub:${name}`;
      out.push(
        await this.writer().write({
          skill: 'person_stub',
          template: 'person_stub',
          path: target,
          key,
          autonomy: 'medium',
          draft: async () => ({
            ok: true,
            vars: {
              key,
              skill: 'person_stub',
              generated_at: new Date(this.now()).toISOString(),
              name,
              source: noteRef(note.path, path.posix.basename(note.path, '.md')),
            },
          }),
        }),
      );
    }
    return out;
  }
}
