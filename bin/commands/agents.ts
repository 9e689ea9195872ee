// `memvault agents add|list|revoke|rotate`: agents' own credentials in <data dir>/agents.json, edited directly (a
// running daemon notices the rewrite at its next request). A new token is printed once and never stored.
import { mkdirSync } from 'node:fs';
import { RATE } from '../../config/schema-agents.js';
import { readAudit } from '../../actors/gateway/agents/audit.js';
import {
  addAgent,
  caseTwins,
  isReservedAgentName,
  readAgents,
  revokeAgent,
  rotateAgent,
  SCOPES,
  type Scope,
  type StoreResult,
} from '../../actors/gateway/agents/store.js';
import { CommandFailure, configFor, EXIT, requireVault, UsageError, type Args } from '../args.js';

function done<T>(r: StoreResult<T>): T {
  if (r.ok) return r.result;
  // a bad name is a usage error; an agent that exists already, or not at all, is a failure of the command
  if (r.reason === 'bad_request') throw new UsageError(r.message);
  throw new CommandFailure(r.message);
}

/** `Inbox,Projects/Atlas` → folder prefixes without trailing slashes; absolute, `..`, `.` and empty ones refused. */
export function parseFolders(spec: string): string[] {
  const out = spec.split(',').map((f) => f.trim().replace(/\/+$/g, ''));
  for (const f of out)
    if (f === '' || f.split('/').some((s) => s === '' || s === '.' || s === '..' || s.startsWith('.')))
      throw new UsageError(`--folders holds "${f}": give vault-relative folders such as Inbox,Projects/Atlas`);
  return [...new Set(out)];
}

export async function agentsCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  requireVault(cfg);
  mkdirSync(cfg.data_dir, { recursive: true, mode: 0o700 });
  const [sub, name, ...extra] = a.rest;
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const now = new Date();
  const needName = () => {
    if (!name) throw new UsageError(`agents ${sub} NAME: the agent's name is missing`);
    return name;
  };
  switch (sub) {
    case 'add': {
      const n = needName();
      if (!a.scope || !SCOPES.includes(a.scope as Scope)) throw new UsageError('--scope must be read, write or admin');
      if (a.rate !== undefined && !RATE.test(a.rate)) throw new UsageError(`--rate must be N/s, N/m or N/h (e.g. 20/s), got "${a.rate}"`);
      const folders = a.folders !== undefined ? parseFolders(a.folders) : null;
      if (folders && a.scope === 'read') throw new UsageError('--folders limits writes; a read agent writes nothing');
      const r = done(
        addAgent(cfg.data_dir, { name: n, scope: a.scope as Scope, folders, sensitive: a.sensitive, rate: a.rate ?? null }, now),
      );
      // writes.allowlist still applies to an agent: a folder outside it is granted in name only
      const outside = (folders ?? []).filter((f) => !cfg.writes.allowlist.includes(f.split('/')[0]!));
      if (outside.length)
        process.stderr.write(
          `warning: --folders ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside writes.allowlist (${cfg.writes.allowlist.join(', ')}): ${n} will be refused writes there (outside_allowlist) unless the allowlist is widened\n`,
        );
      process.stderr.write(`agent ${n} added (${a.scope}); its token, shown only now:\n`);
      process.stdout.write(`${r.token}\n`);
      return EXIT.ok;
    }
    case 'rotate': {
      const r = done(rotateAgent(cfg.data_dir, needName(), now));
      process.stderr.write(`agent ${r.name} has a new token (the old one is refused from now on), shown only now:\n`);
      process.stdout.write(`${r.token}\n`);
      return EXIT.ok;
    }
    case 'revoke': {
      const r = done(revokeAgent(cfg.data_dir, needName(), now));
      process.stdout.write(`agent ${r.name} revoked: its token is refused from its next request\n`);
      return EXIT.ok;
    }
    case 'list': {
      const agents = readAgents(cfg.data_dir).agents;
      const last = new Map<string, string>();
      // a token taken back (revoked, rotated out) still calling is not the agent using its credential
      for (const e of await readAudit(cfg.data_dir, {}))
        if (e.kind === 'agent' && e.outcome !== 'revoked' && e.outcome !== 'rotated') last.set(e.agent, e.t);
      const rows = agents.map((x) => ({
        name: x.name,
        scope: x.scope,
        folders: x.folders,
        sensitive: x.sensitive,
        rate: x.rate ?? `${cfg.agents.default_rate} (default)`,
        created_at: x.created_at,
        rotated_at: x.rotated_at,
        last_used: last.get(x.name) ?? null,
        // added before reserved names were refused: the gateway refuses its token
        ...(isReservedAgentName(x.name) ? { refused: 'reserved name: revoke it and add it under another' } : {}),
      }));
      const twins = caseTwins(agents);
      if (a.json) {
        process.stdout.write(`${JSON.stringify({ agents: rows, warnings: twins }, null, 2)}\n`);
        return EXIT.ok;
      }
      for (const w of twins) process.stderr.write(`memvault: warning: ${w.reason}: ${w.message}\n`);
      if (rows.length === 0) {
        process.stdout.write('no agents; add one with `memvault agents add NAME --scope read|write|admin`\n');
        return EXIT.ok;
      }
      const table = [['name', 'scope', 'folders', 'sensitive', 'rate', 'created', 'last used']].concat(
        rows.map((r) => [
          r.refused ? `${r.name} (refused: reserved name)` : r.name,
          r.scope,
          r.folders?.join(',') ?? '(allowlist)',
          r.sensitive ? 'yes' : 'no',
          r.rate,
          r.created_at.slice(0, 19),
          r.last_used?.slice(0, 19) ?? 'never',
        ]),
      );
      const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
      for (const row of table)
        process.stdout.write(
          `${row
            .map((c, i) => c.padEnd(widths[i]!))
            .join('  ')
            .trimEnd()}\n`,
        );
      return EXIT.ok;
    }
    default:
      throw new UsageError('agents: add NAME --scope …, list, revoke NAME or rotate NAME');
  }
}
