// The tool gateway: the agent tools (vault_read, vault_write, vault_list, vault_link, vault_undo_last, memory_search,
// and the fact log's memory_remember and memory_forget from memory-tools.ts) defined once — schema, annotations,
// handler — and served alike over MCP and HTTP JSON.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolDeps } from './deps.js';
import { LinkGraphCache, vaultLink } from './link-graph.js';
import {
  describeArgIssues,
  memorySearchArgs,
  vaultLinkArgs,
  vaultListArgs,
  vaultReadArgs,
  vaultUndoArgs,
  vaultWriteArgs,
} from './schemas.js';
import { sensitiveRemedy, toolFail, type CallContext, type ToolOutcome, type ToolServer, type WriteBackend } from './types.js';
import { def, type ToolDef, type ToolName } from './tool-def.js';
import { contextTool } from './context-tool.js';
import { factTools } from './fact-tools.js';
import { memoryTools } from './memory-tools.js';
import { mcpInstructions } from './instructions.js';
import { toolErrorResult, toolResults } from './output-schemas.js';
import { vaultList } from './vault-list.js';
import { vaultRead } from './vault-read.js';
import { vaultUndoLast, vaultWrite } from './write-tools.js';
import type { Principal } from '../agents/store.js';
import { mayCall } from '../agents/scopes.js';
import { checkGrant } from '../agents/guard.js';
import { auditEntry } from '../agents/audit-entry.js';

export { TOOL_NAMES, type ToolName } from './tool-def.js';

// searchBody (shared with POST /v1/search) carries no descriptions; the tool listing adds them
const SEARCH_DESCRIPTIONS: Record<string, string> = {
  query: 'What to look for, in plain words',
  k: 'How many results (default from config search.default_k, capped at search.max_k)',
  mode: 'hybrid (default): keyword + semantic; bm25: keywords only; vector: semantic only',
  group: 'note (default): one result per note, its best section, other matching sections in `also`; chunk: one result per section',
  filters: 'Narrow the search: path_prefix or folder (one of them), tags (all must match), since (epoch ms or ISO date), source_type',
};

type ToJsonSchema = typeof import('@modelcontextprotocol/sdk/server/zod-json-schema-compat.js')['toJsonSchemaCompat'];

function describe(x: ToolDef<z.ZodTypeAny>, toJsonSchema: ToJsonSchema): Tool {
  const schema = toJsonSchema(x.schema, { strictUnions: true, pipeStrategy: 'input' }) as Record<string, unknown>;
  delete schema['$schema'];
  if (x.name === 'memory_search') {
    const props = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
    for (const [k, text] of Object.entries(SEARCH_DESCRIPTIONS)) if (props[k]) props[k]['description'] ??= text;
  }
  // the result or the error object (an isError result carries it too): one union, so its $refs resolve from the root
  const output = toJsonSchema(z.union([toolResults[x.name], toolErrorResult]), { strictUnions: true, pipeStrategy: 'output' }) as Record<
    string,
    unknown
  >;
  delete output['$schema'];
  return {
    name: x.name,
    title: x.title,
    description: x.description,
    inputSchema: schema as Tool['inputSchema'],
    outputSchema: { type: 'object', ...output } as Tool['outputSchema'],
    annotations: x.annotations,
  };
}

export class ToolGateway implements ToolServer {
  readonly #d: ToolDeps;
  readonly #links: LinkGraphCache;
  readonly #defs: Map<ToolName, ToolDef<z.ZodTypeAny>>;
  /** The table again, its sensitive-note rule flipped: for callers whose grant differs from the owner's setting. */
  #flipped: Map<ToolName, ToolDef<z.ZodTypeAny>> | null = null;
  #instructions: string | undefined;
  /** The tools as listed (JSON schemas), built on first use: the schema converter is loaded only then. */
  #listed: Promise<Map<ToolName, Tool>> | null = null;

  constructor(deps: ToolDeps) {
    this.#d = deps;
    this.#links = new LinkGraphCache(deps.view);
    this.#defs = this.#table(deps);
  }

  #table(d: ToolDeps): Map<ToolName, ToolDef<z.ZodTypeAny>> {
    const defs = [
      def({
        name: 'vault_read',
        title: 'Read a note',
        description:
          'Read one note of the vault: its full markdown text, frontmatter, mtime_ms (pass it as expected_mtime to vault_write) and content_hash. Sensitive notes are refused unless the owner allowed it.',
        schema: vaultReadArgs,
        annotations: { title: 'Read a note', readOnlyHint: true, openWorldHint: false },
        writes: false,
        run: (a, ctx) => vaultRead(d, a, ctx),
      }),
      def({
        name: 'vault_write',
        title: 'Write a note',
        description:
          'Create a note or replace its whole content; every write is a git commit that vault_undo_last can revert. Set expected_mtime (from vault_read) to refuse the write if someone changed the note meanwhile, and wait_indexed to return only once search sees the new text. Writing the same content again changes nothing.',
        schema: vaultWriteArgs,
        // replaces content (destructive); the writer makes no commit for unchanged content, so a repeat has no further effect
        annotations: { title: 'Write a note', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
        writes: true,
        run: (a, ctx, w) => vaultWrite(d, w!, ctx, a),
      }),
      def({
        name: 'vault_list',
        title: 'List notes',
        description:
          'List the notes (with mtime_ms and size) and subfolders of a folder, or of the whole vault with recursive: true. Hidden and ignored folders (.obsidian, .git, Templates, …) and non-markdown files are left out.',
        schema: vaultListArgs,
        annotations: { title: 'List notes', readOnlyHint: true, openWorldHint: false },
        writes: false,
        run: (a) => vaultList(d, a),
      }),
      def({
        name: 'vault_link',
        title: 'Links of a note',
        description:
          "A note's [[wikilinks]] resolved to notes as Obsidian does (path, then unique file name, then frontmatter alias), the links that lead nowhere (unresolved), and the notes that link to it (backlinks). Read from the index, so a just-written note shows up once indexed.",
        schema: vaultLinkArgs,
        annotations: { title: 'Links of a note', readOnlyHint: true, openWorldHint: false },
        writes: false,
        run: async (a, ctx) => vaultLink(d, this.#links, a, ctx),
      }),
      def({
        name: 'vault_undo_last',
        title: 'Undo the last change',
        description:
          'Revert the most recent change to the vault made by you (only_mine: true, the default) or by anyone (only_mine: false), as a new git commit. Calling it again reverts the change before that.',
        schema: vaultUndoArgs,
        annotations: {
          title: 'Undo the last change',
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        },
        writes: true,
        run: (a, ctx, w) => vaultUndoLast(d, w!, ctx, a),
      }),
      def({
        name: 'memory_search',
        title: 'Search the vault',
        description:
          'Search the vault by meaning and keywords; returns the best notes (one result each: its best passage with path, heading path, line range, snippet and score, other matching passages in `also`), plus the index state (pending files, degraded modes). Sensitive notes are left out.',
        schema: memorySearchArgs,
        annotations: { title: 'Search the vault', readOnlyHint: true, openWorldHint: false },
        writes: false,
        run: async (a, ctx) => {
          if (a.filters?.include_sensitive && !d.mayReadSensitive)
            return toolFail(
              'sensitive',
              `filters.include_sensitive asks for sensitive notes, which this caller may not read; ${sensitiveRemedy(ctx.principal)}`,
            );
          return { ok: true, result: await d.search(a, ctx) };
        },
      }),
      ...memoryTools(d),
      ...factTools(d),
      contextTool(d),
    ];
    return new Map(defs.map((x) => [x.name, x as ToolDef<z.ZodTypeAny>]));
  }

  /** The table for a caller: sensitive notes shown as its grant says (agents: `--sensitive`; the owner: the config). */
  #tableFor(p: Principal | undefined): Map<ToolName, ToolDef<z.ZodTypeAny>> {
    if (!p || p.sensitive === this.#d.mayReadSensitive) return this.#defs;
    this.#flipped ??= this.#table({ ...this.#d, mayReadSensitive: p.sensitive });
    return this.#flipped;
  }

  /**
   * The tool listing, its JSON schemas converted once per incarnation. The converter (part of the MCP SDK, ~0.1–0.3 s
   * to load) is imported here rather than at start, so a restarted gateway answers searches without waiting for it.
   */
  #listing(): Promise<Map<ToolName, Tool>> {
    this.#listed ??= import('@modelcontextprotocol/sdk/server/zod-json-schema-compat.js').then(
      ({ toJsonSchemaCompat }) => new Map([...this.#defs.values()].map((x) => [x.name, describe(x, toJsonSchemaCompat)])),
    );
    return this.#listed;
  }

  /** Loads the MCP half (schema converter, server, transport) in the background, once the gateway is serving. */
  warm(): Promise<unknown> {
    return Promise.all([this.#listing(), import('./mcp-http.js'), Promise.resolve().then(() => this.instructions)]);
  }

  get metrics(): ToolDeps['metrics'] {
    return this.#d.metrics;
  }

  /** Rendered on first use (liquidjs costs ~0.1 s to load; a restarted gateway answers searches first). */
  get instructions(): string {
    this.#instructions ??= mcpInstructions({ writable: this.#d.writable });
    return this.#instructions;
  }

  get version(): string {
    return this.#d.version;
  }

  /** Request bodies up to this size are read: room for a maximal vault_write after JSON escaping. */
  get maxBodyBytes(): number {
    return Math.max(1_000_000, 2 * this.#d.maxWriteBytes + 65_536);
  }

  /** Why writes are off right now, or null when the write tools are offered. */
  writesOff(): string | null {
    const w = this.#d.writes;
    if (!w) return 'this process has no write path (read-only)';
    const a = w.available();
    return a.ok ? null : a.reason;
  }

  /** The tools on offer now: the write tools only while the write path is available. */
  async list(principal?: Principal): Promise<Tool[]> {
    const listed = await this.#listing();
    const off = this.writesOff() !== null;
    return [...listed.values()].filter(
      (t) => !(off && this.#defs.get(t.name as ToolName)?.writes) && (!principal || mayCall(principal, t.name as ToolName)),
    );
  }

  known(name: string): name is ToolName {
    return this.#defs.has(name as ToolName);
  }

  /**
   * Validates and runs one call; expected failures come back as data (an index file damaged on disk among them). A
   * bug throws (after it is counted and logged) and the transport answers 500 / a JSON-RPC internal error.
   */
  async call(name: ToolName, rawArgs: unknown, ctx: CallContext): Promise<ToolOutcome> {
    const tool = this.#tableFor(ctx.principal).get(name)!;
    const started = performance.now();
    const d = this.#d;
    let outcome: ToolOutcome;
    try {
      outcome = await this.#run(tool, rawArgs, ctx);
    } catch (err) {
      // an index file damaged on disk is an expected failure: its rebuild is under way (index-damage.ts)
      const damaged = d.damaged?.(err);
      if (!damaged) {
        d.metrics.calls.inc({ tool: name, transport: ctx.transport, outcome: 'internal' });
        d.log.error(
          { event: 'gateway_request', tool: name, agent: ctx.agent, transport: ctx.transport, err: String((err as Error)?.stack ?? err) },
          'tool call failed',
        );
        d.audit?.(auditEntry(name, rawArgs, ctx, 'internal', performance.now() - started));
        throw err;
      }
      outcome = toolFail(damaged.reason, damaged.message);
    }
    const seconds = (performance.now() - started) / 1000;
    const label = outcome.ok ? 'ok' : outcome.error.reason;
    d.metrics.calls.inc({ tool: name, transport: ctx.transport, outcome: label });
    d.metrics.callSeconds.observe({ tool: name }, seconds);
    const args = (rawArgs ?? {}) as Record<string, unknown>;
    d.audit?.(auditEntry(name, rawArgs, ctx, label, seconds * 1000, outcome.ok ? outcome.result : undefined));
    d.log.event('gateway_request', {
      tool: name,
      agent: ctx.agent,
      transport: ctx.transport,
      outcome: label,
      ms: Math.round(seconds * 100_000) / 100,
      ...(typeof args['path'] === 'string' ? { path: args['path'] } : {}),
      ...(tool.writes && typeof args['reason'] === 'string' ? { reason: args['reason'] } : {}),
    });
    return outcome;
  }

  async #run(tool: ToolDef<z.ZodTypeAny>, rawArgs: unknown, ctx: CallContext): Promise<ToolOutcome> {
    const parsed = tool.schema.safeParse(rawArgs ?? {});
    if (!parsed.success) return toolFail('bad_request', `${tool.name}: ${describeArgIssues(parsed.error)}`);
    // the grant is checked before any work: a refused write never reaches the disk
    const refused = ctx.principal ? checkGrant(ctx.principal, tool.name, parsed.data, this.#d) : null;
    if (refused) return refused;
    let w: WriteBackend | null = null;
    if (tool.writes) {
      const off = this.writesOff();
      if (off !== null) return toolFail('unavailable', `writes are unavailable: ${off}`);
      w = this.#d.writes;
    }
    return tool.run(parsed.data, ctx, w);
  }
}
