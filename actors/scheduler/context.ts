// What a skill knows, read through the index like every search: notes changed in a period, a day's meeting notes,
// hybrid search for what relates to a meeting or a person, and episodes (chats, tasks: `source_type` other than
// vault) through the same search with a source-type filter — none until the index holds some. Sensitive notes never
// reach the model; excerpts are capped so a prompt stays within a small model's window.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SOURCE_VAULT } from '../../messages/common.js';
import type { SourceType } from '../../messages/episodes.js';
import type { Excerpt, NoteRef } from './templates/vars.js';
import type { IndexView } from '../gateway/index-view.js';
import { readFrontmatter } from '../chunker/frontmatter.js';

/** Characters of one note shown to the model, and of all of them together. */
export const EXCERPT_CHARS = 2_500;
export const CONTEXT_CHARS = 16_000;

/** Folders the skills write their own digests to: not fed back into the same kind of digest. */
export const DIGEST_FOLDERS = ['Reflections/', 'Commitments/', 'Reviews/'];

export function noteRef(p: string, title: string): NoteRef {
  return { path: p, title, link: `[[${p.replace(/\.md$/i, '')}|${title.replace(/[|\]]/g, ' ')}]]` };
}

export interface DatedNote extends NoteRef {
  mtimeMs: number;
  frontmatter: Record<string, unknown>;
}

export class Context {
  constructor(
    readonly view: IndexView,
    readonly vault: string,
  ) {}

  /** Live, non-sensitive vault notes last changed in [from, to), newest first, except paths under `skip`. */
  changedBetween(from: number, to: number, skip: readonly string[] = DIGEST_FOLDERS): DatedNote[] {
    const r = this.view.reader;
    const out: DatedNote[] = [];
    for (const [p, st] of r.documentStats(SOURCE_VAULT)) {
      if (st.mtimeMs < from || st.mtimeMs >= to || skip.some((s) => p.startsWith(s))) continue;
      const doc = r.document(SOURCE_VAULT, p);
      if (!doc || doc.sensitive) continue;
      out.push({ ...noteRef(p, doc.title ?? p), mtimeMs: st.mtimeMs, frontmatter: doc.frontmatter ?? {} });
    }
    return out.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  }

  /** Notes under `folder` for `date`: named `YYYY-MM-DD …` or with `date:` in their frontmatter. */
  notesDated(folder: string, date: string): NoteRef[] {
    const r = this.view.reader;
    const out: NoteRef[] = [];
    for (const p of r.documentStats(SOURCE_VAULT).keys()) {
      if (!p.startsWith(`${folder}/`)) continue;
      const doc = r.document(SOURCE_VAULT, p);
      if (!doc || doc.sensitive) continue;
      const named = path.posix.basename(p).startsWith(date);
      const fmDate = doc.frontmatter?.['date'];
      if (named || fmDate === date || (fmDate instanceof Date && fmDate.toISOString().startsWith(date)))
        out.push(noteRef(p, doc.title ?? p));
    }
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** A note's body (frontmatter dropped), capped; null when it is gone or sensitive. */
  async excerpt(ref: NoteRef, max = EXCERPT_CHARS): Promise<Excerpt | null> {
    const doc = this.view.reader.document(SOURCE_VAULT, ref.path);
    if (doc?.sensitive) return null;
    let text: string;
    try {
      text = await readFile(path.join(this.vault, ...ref.path.split('/')), 'utf8');
    } catch {
      return null;
    }
    const lines = text.replace(/^\ufeff/, '').split('\n');
    const body = lines.slice(readFrontmatter(lines).bodyStartLine).join('\n').trim();
    return { path: ref.path, title: ref.title, text: body.length > max ? `${body.slice(0, max)} …` : body };
  }

  /** Excerpts of `refs` in order, until CONTEXT_CHARS are used. */
  async excerpts(refs: readonly NoteRef[], budget = CONTEXT_CHARS): Promise<Excerpt[]> {
    const out: Excerpt[] = [];
    let used = 0;
    for (const r of refs) {
      if (used >= budget) break;
      const e = await this.excerpt(r, Math.min(EXCERPT_CHARS, budget - used));
      if (!e) continue;
      out.push(e);
      used += e.text.length;
    }
    return out;
  }

  /** Vault sections that match `query` (the configured search mode), as excerpts of their snippets. */
  async search(query: string, k: number, skip: readonly string[] = []): Promise<Excerpt[]> {
    const r = await this.view.search({ query, k, filters: { source_type: SOURCE_VAULT } });
    return r.results.flatMap((h) =>
      h.path === undefined || skip.includes(h.path)
        ? []
        : [{ path: h.path, title: h.title, text: [h.snippet, ...(h.also ?? []).map((a) => a.snippet)].join(' … ') }],
    );
  }

  /**
   * Episodes of `sourceType` (chat, task …) changed since `since` that match `query`, before `until` (when they
   * happened): none when the index has none. An episode has no path: its id (`task:<id>`, `chat:<session>:…`) stands
   * in for one.
   */
  async episodes(sourceType: SourceType, query: string, since: number, until: number, k = 10): Promise<Excerpt[]> {
    try {
      const r = await this.view.search({ query, k, mode: 'bm25', filters: { source_type: sourceType, since } });
      return r.results
        .filter((h) => h.at === undefined || Date.parse(h.at) < until)
        .map((h) => ({ path: h.episode_id ?? h.path ?? h.title, title: h.title, text: h.snippet }));
    } catch {
      return [];
    }
  }
}
