// The one scope check (scopes.ts, through guard.ts as the gateway calls it) against an oracle written separately:
// for any scope, folder grant, tool, path and only_mine, the call is allowed exactly when the oracle says so.
import fc from 'fast-check';
import t from 'tap';
import { checkGrant } from '../../../actors/gateway/agents/guard.js';
import { authorize } from '../../../actors/gateway/agents/scopes.js';
import type { Principal, Scope } from '../../../actors/gateway/agents/store.js';
import { TOOL_NAMES, type ToolName } from '../../../actors/gateway/tools/tool-def.js';

const READS = new Set<ToolName>([
  'vault_read',
  'vault_list',
  'vault_link',
  'memory_search',
  'memory_facts',
  'memory_timeline',
  'memory_context',
]);
/** Fact edits land in the subject's note, wherever it is: only a write grant without folders (or admin) may. */
const FACT_EDITS = new Set<ToolName>(['memory_add_fact', 'memory_invalidate_fact', 'memory_delete_fact']);

/** What the README's scope table says, written without looking at scopes.ts. */
function oracle(scope: Scope, folders: string[] | null, tool: ToolName, path: string, onlyMine: boolean | undefined): boolean {
  if (READS.has(tool)) return true;
  if (scope === 'read') return false;
  if (scope === 'admin') return true;
  if (tool === 'vault_undo_last') return onlyMine !== false;
  if (FACT_EDITS.has(tool)) return folders === null;
  const target = tool === 'vault_write' ? path : tool === 'memory_remember' ? 'Memory/Log/x.md' : null;
  if (target === null || folders === null) return true;
  const segs = target.split('/');
  return folders.some((f) => {
    const fs = f.split('/');
    return fs.length < segs.length && fs.every((s, i) => s === segs[i]);
  });
}

const name = fc.constantFrom('Inbox', 'Inboxes', 'Projects', 'Atlas', 'Memory', 'Log', 'a', 'A');
const folder = fc.array(name, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
const notePath = fc.array(name, { minLength: 1, maxLength: 4 }).map((s) => `${s.join('/')}.md`);

t.test('authorize and the gateway guard agree with the oracle', async (t) => {
  let allowed = 0;
  let refused = 0;
  fc.assert(
    fc.property(
      fc.constantFrom<Scope>('read', 'write', 'admin'),
      fc.option(fc.array(folder, { maxLength: 3 }), { nil: null }),
      fc.constantFrom(...TOOL_NAMES),
      notePath,
      fc.option(fc.boolean(), { nil: undefined }),
      (scope, folders, tool, path, onlyMine) => {
        const p: Principal = { kind: 'agent', name: 'x', scope, folders, sensitive: false, rate: null };
        const args: Record<string, unknown> = { path, ...(onlyMine !== undefined ? { only_mine: onlyMine } : {}) };
        const want = oracle(scope, folders, tool, path, onlyMine);
        const got = checkGrant(p, tool, args, { reserved: () => false, factLog: 'Memory/Log' });
        if (want) allowed++;
        else refused++;
        if (want !== (got === null)) return false;
        if (got !== null && got.error.reason !== 'forbidden') return false;
        return true;
      },
    ),
    { numRuns: 5_000 },
  );
  t.ok(allowed > 500 && refused > 500, `both outcomes are exercised (${allowed} allowed, ${refused} refused)`);
});

t.test('routes need their scope: jobs, reindex, reconcile and prune are admin-only, episodes need write', async (t) => {
  const routes = [
    'status',
    'search',
    'tools_list',
    'mcp',
    'episodes_append',
    'episodes_close',
    'prune',
    'jobs',
    'reindex',
    'reconcile',
  ] as const;
  const need = {
    status: 0,
    search: 0,
    tools_list: 0,
    mcp: 0,
    episodes_append: 1,
    episodes_close: 1,
    prune: 2,
    jobs: 2,
    reindex: 2,
    reconcile: 2,
  };
  const rank = { read: 0, write: 1, admin: 2 };
  for (const scope of ['read', 'write', 'admin'] as const)
    for (const route of routes)
      t.equal(authorize({ scope, folders: null }, { kind: 'route', route }).ok, rank[scope] >= need[route], `${scope} → ${route}`);
});
