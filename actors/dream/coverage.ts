// Coverage, not trust: a batch's fact is covered when a page in the zones cites its id in frontmatter `sources:`
// and the page holds its content (most of its words); anything else stays an uncovered log fact, searchable. A
// fact the model forgot, or cited without writing down, is never lost from search.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readFrontmatter } from '../chunker/frontmatter.js';
import { sha256Hex } from '../../messages/hash.js';
import { markdownUnder } from './markdown-under.js';

export interface ZonePage {
  rel: string;
  text: string;
  sources: string[];
}

/** Every markdown page under the zones (sorted), with its `sources:` ids. */
export async function zonePages(vault: string, zones: readonly string[]): Promise<ZonePage[]> {
  const out: ZonePage[] = [];
  for (const z of zones)
    for (const r of await markdownUnder(vault, z)) {
      const text = await readFile(path.join(vault, ...r.split('/')), 'utf8').catch(() => null);
      if (text !== null) out.push({ rel: r, text, sources: sourcesOf(text) });
    }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : 1));
}

export function sourcesOf(text: string): string[] {
  const fm = readFrontmatter(text.replace(/^\ufeff/, '').split('\n'));
  const s = fm.data['sources'];
  const list = Array.isArray(s) ? s : typeof s === 'string' ? [s] : [];
  return list.filter((x): x is string => typeof x === 'string').map((x) => x.trim());
}

/** Content hash per page: the proof of work compares these before and after a run. */
export function pageHashes(pages: readonly ZonePage[]): Map<string, string> {
  return new Map(pages.map((p) => [p.rel, sha256Hex(p.text)]));
}

/** Pages added, changed or removed between two snapshots. */
export function changedPages(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  for (const [rel, h] of after) if (before.get(rel) !== h) out.add(rel);
  for (const rel of before.keys()) if (!after.has(rel)) out.add(rel);
  return [...out].sort();
}

const words = (s: string): string[] =>
  s
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3);

/** Whether `page` holds `fact`'s content: at least 60% of its words (of 3+ letters) appear on the page. */
export function holds(page: string, fact: string): boolean {
  const want = [...new Set(words(fact))];
  if (want.length === 0) return page.toLowerCase().includes(fact.toLowerCase().trim());
  const have = new Set(words(page));
  return want.filter((w) => have.has(w)).length / want.length >= 0.6;
}

export interface Coverage {
  covered: string[];
  uncovered: string[];
  /** Cited on a page that does not hold the fact's content: counted uncovered. */
  citedOnly: string[];
}

export function coverageOf(pages: readonly ZonePage[], facts: ReadonlyArray<{ factId: string; content: string }>): Coverage {
  const byId = new Map<string, ZonePage[]>();
  for (const p of pages) for (const id of p.sources) byId.set(id, [...(byId.get(id) ?? []), p]);
  const c: Coverage = { covered: [], uncovered: [], citedOnly: [] };
  for (const f of facts) {
    const citing = byId.get(f.factId) ?? [];
    if (citing.some((p) => holds(p.text, f.content))) c.covered.push(f.factId);
    else {
      c.uncovered.push(f.factId);
      if (citing.length) c.citedOnly.push(f.factId);
    }
  }
  return c;
}

/** One covered fact as the search filter reads it: hidden while `page` is in the index with exactly `hash`. */
export interface CoveredEntry {
  id: string;
  content: string;
  page: string;
  hash: string;
}

/**
 * The covered set after a run, recomputed for every fact covered before and every fact of the batch against the
 * pages as they are now: a page a person edited, or a run undone, un-hides what it no longer holds.
 */
export function refreshCovered(
  old: readonly CoveredEntry[],
  pages: readonly ZonePage[],
  batch: ReadonlyArray<{ factId: string; content: string }>,
): CoveredEntry[] {
  const facts = new Map<string, string>();
  for (const e of old) facts.set(e.id, e.content);
  for (const f of batch) facts.set(f.factId, f.content);
  const out: CoveredEntry[] = [];
  for (const [id, content] of facts) {
    const p = pages.find((x) => x.sources.includes(id) && holds(x.text, content));
    if (p) out.push({ id, content, page: p.rel, hash: sha256Hex(p.text) });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}
