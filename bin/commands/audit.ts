// `memvault audit [--agent A] [--since 1d] [--refused]`: the audit trail (<data dir>/audit/*.jsonl) read directly,
// with or without a daemon: every tool call and refusal, who made it, its target and outcome.
import { readAudit } from '../../actors/gateway/agents/audit.js';
import { isRefusal } from '../../actors/gateway/agents/metrics.js';
import { configFor, EXIT, type Args } from '../args.js';
import { sinceOf } from './recall.js';

export async function auditCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const since = a.since !== undefined ? sinceOf(a.since, Date.now()) : undefined;
  const all = await readAudit(cfg.data_dir, {
    ...(a.agent !== undefined ? { agent: a.agent } : {}),
    ...(since !== undefined ? { since } : {}),
  });
  const entries = a.refused ? all.filter((e) => isRefusal(e.outcome)) : all;
  if (a.json) {
    process.stdout.write(`${JSON.stringify({ entries }, null, 2)}\n`);
    return EXIT.ok;
  }
  for (const e of entries) {
    // what it changed: the commit (short), the ids, and the paths besides the target already shown
    const c = e.changed;
    const changed = c ? [c.commit?.slice(0, 10), ...(c.ids ?? []), ...(c.paths ?? []).filter((p) => p !== e.path)].filter(Boolean) : [];
    process.stdout.write(
      `${e.t}  ${e.agent.padEnd(16)} ${e.tool.padEnd(18)} ${e.outcome.padEnd(14)} ${String(e.ms).padStart(8)} ms  ${e.path ?? (e.query_hash ? `query#${e.query_hash}` : '')}${changed.length ? `  [${changed.join(' ')}]` : ''}\n`,
    );
  }
  if (entries.length === 0) process.stderr.write('no audit entries match\n');
  return EXIT.ok;
}
