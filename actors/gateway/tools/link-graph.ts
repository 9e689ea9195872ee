// vault_link: a note's outgoing wikilinks resolved to notes the way Obsidian does (path, then unique name, then
// frontmatter alias), the ones that resolve to nothing, and its backlinks — all from the index's stored links.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WikiLink } from '../../../messages/common.js';
import { SOURCE_VAULT } from '../../../messages/common.js';
import type { IndexView } from '../index-view.js';
import type { ToolDeps } from './deps.js';
import { checkReadPath } from './read-path.js';
import { sensitiveRemedy, toolFail, type CallContext, type ToolOutcome } from './types.js';

export interface GraphNote {
  path: string;
  title: string;
  links: WikiLink[];
  aliases: string[];
  sensitive: boolean;
}

export type Resolution =
  | { ok: true; path: string; via: 'path' | 'name' | 'alias' }
  | { ok: false; reason: 'missing' | 'ambiguous' | 'attachment'; candidates?: string[] };

interface LinkFields {
  target: string;
  heading?: string;
  alias?: string;
  embed: boolean;
  line: number;
}

export interface LinkResult {
  path: string;
  title: string;
  outgoing: Array<LinkFields & { path: string; via: 'path' | 'name' | 'alias' }>;
  unresolved: Array<LinkFields & { reason: 'missing' | 'ambiguous' | 'attachment'; candidates?: string[] }>;
  backlinks: Array<{ path: string; title: string; line: number; heading?: string; alias?: string; embed: boolean }>;
}

const lower = (s: string) => s.normalize('NFC').toLowerCase();
const stripMd = (p: string) => p.replace(/\.md$/i, '');
// files Obsidian embeds or links besides notes; a target ending like this that matches no note is an attachment
const ATTACHMENT =
  /\.(?:png|jpe?g|gif|svg|webp|bmp|avif|heic|pdf|mp3|wav|m4a|ogg|flac|mp4|webm|mov|mkv|canvas|excalidraw|base|csv|xlsx?|docx?|pptx?|zip|txt|json|html?)$/i;

function push(m: Map<string, string[]>, key: string, value: string): void {
  const list = m.get(key);
  if (!list) m.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

/** The vault's notes and how link text maps to them; backlinks are computed once per index state. */
export class LinkGraph {
  readonly notes = new Map<string, GraphNote>();
  readonly #byPath = new Map<string, string[]>(); // lower-cased path without .md
  readonly #byName = new Map<string, string[]>(); // lower-cased file name without .md
  readonly #byAlias = new Map<string, string[]>();
  readonly backlinks = new Map<string, Array<{ from: string; link: WikiLink }>>();
  readonly #memo = new Map<string, Resolution>(); // many notes link the same targets

  constructor(notes: Iterable<GraphNote>) {
    for (const n of notes) {
      this.notes.set(n.path, n);
      const key = lower(stripMd(n.path));
      push(this.#byPath, key, n.path);
      push(this.#byName, key.slice(key.lastIndexOf('/') + 1), n.path);
      for (const a of n.aliases) push(this.#byAlias, lower(a.trim()), n.path);
    }
    for (const n of this.notes.values()) {
      for (const link of n.links) {
        const r = this.resolve(link.target);
        if (!r.ok || r.path === n.path) continue;
        const list = this.backlinks.get(r.path) ?? [];
        list.push({ from: n.path, link });
        this.backlinks.set(r.path, list);
      }
    }
  }

  /** Obsidian's order: the exact path (with or without .md), a unique file name or path suffix, a unique alias. */
  resolve(target: string): Resolution {
    let r = this.#memo.get(target);
    if (!r) {
      r = this.#resolve(target);
      this.#memo.set(target, r);
    }
    return r;
  }

  #resolve(target: string): Resolution {
    const t = lower(stripMd(target.trim().replace(/^\/+/, '')));
    if (t === '') return { ok: false, reason: 'missing' };
    const exact = this.#byPath.get(t);
    if (exact) {
      // a case-exact match wins over one that differs only in case
      const cased = exact.find((p) => stripMd(p) === stripMd(target.trim()));
      return { ok: true, path: cased ?? exact[0]!, via: 'path' };
    }
    const byName = t.includes('/')
      ? [...this.#byPath.entries()].filter(([k]) => k.endsWith('/' + t)).flatMap(([, v]) => v)
      : (this.#byName.get(t) ?? []);
    if (byName.length === 1) return { ok: true, path: byName[0]!, via: 'name' };
    if (byName.length > 1) return { ok: false, reason: 'ambiguous', candidates: [...byName].sort() };
    const byAlias = this.#byAlias.get(t) ?? [];
    if (byAlias.length === 1) return { ok: true, path: byAlias[0]!, via: 'alias' };
    if (byAlias.length > 1) return { ok: false, reason: 'ambiguous', candidates: [...byAlias].sort() };
    return { ok: false, reason: ATTACHMENT.test(t) ? 'attachment' : 'missing' };
  }
}

/** The `aliases` / `alias` of a note's frontmatter (stored as parsed; anything but a mapping has none). */
function aliasesOf(frontmatter: unknown): string[] {
  if (frontmatter === null || typeof frontmatter !== 'object' || Array.isArray(frontmatter)) return [];
  const fm = frontmatter as Record<string, unknown>;
  const out: string[] = [];
  for (const key of ['aliases', 'alias']) {
    const v = fm[key];
    for (const a of Array.isArray(v) ? v : [v]) if (typeof a === 'string' && a.trim() !== '') out.push(a);
  }
  return out;
}

function isLink(x: unknown): x is WikiLink {
  const l = x as WikiLink;
  return typeof l === 'object' && l !== null && typeof l.target === 'string' && typeof l.line === 'number';
}

/** Every live note in the index, with its links and aliases. */
export function graphNotes(view: IndexView): GraphNote[] {
  const out: GraphNote[] = [];
  for (const doc of view.reader.documentLinks(SOURCE_VAULT)) {
    const links = doc.metadata['links'];
    out.push({
      path: doc.sourceId,
      title: doc.title ?? doc.sourceId,
      links: Array.isArray(links) ? links.filter(isLink) : [],
      aliases: aliasesOf(doc.metadata['frontmatter']),
      sensitive: doc.sensitive,
    });
  }
  return out;
}

/**
 * Rebuilds the graph only when a vault note's row changed (or the index was swapped) since the last build: chat
 * turns, tasks and facts are written to the index all the time and never change a note's links.
 */
export class LinkGraphCache {
  #stamp = -1;
  #graph: LinkGraph | null = null;

  constructor(readonly view: IndexView) {}

  get(): LinkGraph {
    const b = this.view.board;
    // without a board (direct mode) there is no cheap change signal: rebuild every call
    const stamp = b ? b.get('vaultWrites') + b.get('indexGeneration') * 1e9 : NaN;
    if (!this.#graph || stamp !== this.#stamp) {
      this.view.state(); // reopens the connection if a reindex swapped the file
      this.#graph = new LinkGraph(graphNotes(this.view));
      this.#stamp = stamp;
    }
    return this.#graph;
  }
}

function fields(l: WikiLink): LinkFields {
  const f: LinkFields = { target: l.target, embed: l.embed, line: l.line };
  if (l.heading !== undefined) f.heading = l.heading;
  if (l.alias !== undefined) f.alias = l.alias;
  return f;
}

export function vaultLink(d: ToolDeps, cache: LinkGraphCache, args: { path: string }, ctx?: CallContext): ToolOutcome<LinkResult> {
  const checked = checkReadPath(args.path);
  if (!checked.ok) return checked;
  const rel = checked.result.rel;
  const g = cache.get();
  const note = g.notes.get(rel);
  if (!note) {
    const onDisk = existsSync(path.join(d.vault, ...rel.split('/')));
    return toolFail(
      'not_found',
      onDisk ? `${rel} is not indexed (yet, or it is in an ignored folder); try again shortly` : `no note at ${rel}`,
    );
  }
  if (note.sensitive && !d.mayReadSensitive)
    return toolFail('sensitive', `${rel} is marked sensitive, so this caller may not see its links; ${sensitiveRemedy(ctx?.principal)}`);
  const out: LinkResult = { path: rel, title: note.title, outgoing: [], unresolved: [], backlinks: [] };
  for (const l of note.links) {
    if (l.target === '') continue; // [[#heading]] points inside this note
    const r = g.resolve(l.target);
    if (r.ok) out.outgoing.push({ ...fields(l), path: r.path, via: r.via });
    else
      out.unresolved.push(r.candidates ? { ...fields(l), reason: r.reason, candidates: r.candidates } : { ...fields(l), reason: r.reason });
  }
  for (const b of g.backlinks.get(rel) ?? []) {
    const from = g.notes.get(b.from);
    if (!from || (from.sensitive && !d.mayReadSensitive)) continue; // like search: sensitive notes stay out of view
    const { target: _t, ...rest } = fields(b.link);
    out.backlinks.push({ path: b.from, title: from.title, ...rest });
  }
  out.backlinks.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  return { ok: true, result: out };
}
