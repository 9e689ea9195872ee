// The dream's tools as the model sees them (JSON Schema) and as memvault runs them: memory_search, vault_read,
// vault_list, vault_link, vault_write. Writes pass confine.ts, then the git writer (one commit each, agent `dream`,
// the run and batch in its reason). Every outcome, refused or not, is one short text the model gets back.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Caller, MutationResult, VaultOp } from '../../messages/vault-ops.js';
import type { ToolDef } from '../scheduler/llm/types.js';
import type { MemoryPaths } from '../memory/paths.js';
import { isSensitive, readFrontmatter } from '../chunker/frontmatter.js';
import { resolveInsideVault } from '../gateway/tools/read-path.js';
import { cleanPath, confineWrite } from './confine.js';
import { markdownUnder } from './markdown-under.js';

export type ToolName = 'memory_search' | 'vault_read' | 'vault_list' | 'vault_link' | 'vault_write';
export const TOOL_NAMES: readonly ToolName[] = ['memory_search', 'vault_read', 'vault_list', 'vault_link', 'vault_write'];

export type RefusalReason =
  | 'outside_zone'
  | 'log_protected'
  | 'protected_file'
  | 'path_escape'
  | 'unknown_tool'
  | 'bad_arguments'
  | 'write_failed'
  | 'not_found'
  | 'sensitive';

export type ToolOutcome = { ok: true; text: string; wrote?: string } | { ok: false; reason: RefusalReason; text: string };

export interface SearchHit {
  path: string;
  text: string;
  factId?: string;
}

export interface ToolDeps {
  vault: string;
  zones: readonly string[];
  memory: MemoryPaths;
  /** A search of the index that the recall log does not record (the dream's reads are not a person's recall). */
  search(query: string, k: number): Promise<SearchHit[]>;
  /** One write through the git writer. */
  mutate(op: VaultOp, caller: Caller): Promise<MutationResult>;
  caller: Caller;
}

const str = (d: string) => ({ type: 'string', description: d });
const def = (name: ToolName, description: string, props: Record<string, unknown>, required: string[]): ToolDef => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: props, required, additionalProperties: false } },
});

export const TOOL_DEFS: ToolDef[] = [
  def(
    'memory_search',
    'Search notes and facts; returns paths and text.',
    { query: str('what to look for'), k: { type: 'integer', minimum: 1, maximum: 20 } },
    ['query'],
  ),
  def('vault_read', 'Read a note (vault-relative path).', { path: str('e.g. Memory/Wiki/Berlin.md') }, ['path']),
  def('vault_list', 'List the notes under a folder.', { folder: str('e.g. Memory/Wiki') }, ['folder']),
  def(
    'vault_link',
    'Add a [[link]] from one wiki page to another note.',
    { from: str('the page to add the link to'), to: str('the note linked') },
    ['from', 'to'],
  ),
  def(
    'vault_write',
    'Create or replace a wiki page (whole content, with frontmatter `sources:` listing the fact ids it covers).',
    { path: str('a page inside the zones, or Inbox/Conflicts YYYY-MM-DD.md'), content: str('the whole note') },
    ['path', 'content'],
  ),
];

const MAX_READ = 20_000;
const MAX_LIST = 200;

function args(raw: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(raw || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const refuse = (reason: RefusalReason, message: string): ToolOutcome => ({ ok: false, reason, text: `refused (${reason}): ${message}` });

async function readRel(vault: string, rel: string): Promise<string | null> {
  try {
    return await readFile(path.join(vault, ...rel.split('/')), 'utf8');
  } catch {
    return null;
  }
}

/** A note for the model: inside the vault's real path (no symlink out), never a sensitive one. */
async function readForModel(vault: string, rel: string): Promise<ToolOutcome> {
  const inside = await resolveInsideVault(vault, rel);
  if (!inside.ok)
    return inside.error.reason === 'not_found' ? refuse('not_found', `${rel} does not exist`) : refuse('path_escape', inside.error.message);
  const text = await readRel(vault, rel);
  if (text === null) return refuse('not_found', `${rel} does not exist`);
  if (isSensitive(readFrontmatter(text.replace(/^\ufeff/, '').split('\n'))))
    return refuse('sensitive', `${rel} is marked sensitive (sensitive: true or memvault: local-only): it never reaches the model`);
  return { ok: true, text };
}

const list = (vault: string, folder: string): Promise<string[]> => markdownUnder(vault, folder, MAX_LIST);

async function write(d: ToolDeps, rawPath: unknown, content: unknown): Promise<ToolOutcome> {
  const c = confineWrite(rawPath, d.zones, d.memory);
  if (!c.ok) return refuse(c.reason, c.message);
  if (typeof content !== 'string') return refuse('bad_arguments', 'content must be a string');
  let r: MutationResult;
  try {
    r = await d.mutate({ op: 'write', path: c.rel, content }, d.caller);
  } catch (err) {
    return refuse('write_failed', `the git writer did not answer: ${(err as Error).message}`);
  }
  if (!r.ok) return refuse('write_failed', `${r.reason}: ${r.message}`);
  return {
    ok: true,
    text: r.commit ? `written ${c.rel} (commit ${r.commit.slice(0, 12)})` : `${c.rel} unchanged (same content)`,
    wrote: c.rel,
  };
}

/** Runs one tool call; never throws for anything the model sent. */
export async function runTool(d: ToolDeps, name: string, rawArgs: string): Promise<ToolOutcome> {
  if (!(TOOL_NAMES as readonly string[]).includes(name))
    return refuse('unknown_tool', `no tool named ${JSON.stringify(name)}; the tools are ${TOOL_NAMES.join(', ')}`);
  const a = args(rawArgs);
  if (!a) return refuse('bad_arguments', 'arguments must be a JSON object');
  switch (name as ToolName) {
    case 'memory_search': {
      if (typeof a['query'] !== 'string' || a['query'].trim() === '') return refuse('bad_arguments', 'query must be a non-empty string');
      const k = typeof a['k'] === 'number' ? Math.max(1, Math.min(20, Math.floor(a['k']))) : 8;
      const hits = await d.search(a['query'], k);
      return {
        ok: true,
        text: hits.length
          ? hits.map((h) => `${h.factId ?? h.path}: ${h.text.replace(/\s+/g, ' ').slice(0, 300)}`).join('\n')
          : '(no results)',
      };
    }
    case 'vault_read': {
      const c = cleanPath(a['path']);
      if (!c.ok) return refuse(c.reason, c.message);
      const r = await readForModel(d.vault, c.rel);
      if (!r.ok) return r;
      return { ok: true, text: r.text.length > MAX_READ ? `${r.text.slice(0, MAX_READ)}\n…(cut at ${MAX_READ} characters)` : r.text };
    }
    case 'vault_list': {
      const c = cleanPath(a['folder']);
      if (!c.ok) return refuse(c.reason, c.message);
      const inside = await resolveInsideVault(d.vault, c.rel);
      if (!inside.ok && inside.error.reason !== 'not_found') return refuse('path_escape', inside.error.message);
      const files = await list(d.vault, c.rel);
      return { ok: true, text: files.length ? files.join('\n') : '(empty)' };
    }
    case 'vault_link': {
      const from = confineWrite(a['from'], d.zones, d.memory);
      if (!from.ok) return refuse(from.reason, from.message);
      const to = cleanPath(a['to']);
      if (!to.ok) return refuse(to.reason, to.message);
      const text = await readRel(d.vault, from.rel);
      if (text === null) return refuse('not_found', `${from.rel} does not exist: write it first`);
      const target = to.rel.replace(/\.md$/, '');
      if (text.includes(`[[${target}]]`)) return { ok: true, text: `${from.rel} already links [[${target}]]` };
      const base = text.endsWith('\n') ? text : `${text}\n`;
      return write(d, from.rel, `${base}${/\n## Related\n/.test(base) ? '' : '\n## Related\n'}- [[${target}]]\n`);
    }
    case 'vault_write':
      return write(d, a['path'], a['content']);
  }
}
