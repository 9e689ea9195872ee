// `memvault forget FACT_ID | --query TEXT [--confirm] | --episode ID [--reason WHY]`: memory_forget from the command
// line. Facts are forgotten through the git writer (a committed tombstone), so without a running daemon one is
// started in this process for the call and stopped after it.
import { configFor, UsageError, type Args } from '../args.js';
import { callToolCommand, type ToolBody } from '../tool-call.js';

function render(body: ToolBody): string {
  if (body['candidates'])
    return `nothing forgotten yet; the best matches (forget the first with --confirm, or one by its id):\n${(
      body['candidates'] as Array<{ fact_id: string; text: string }>
    )
      .map((c) => `  ${c.fact_id}  ${c.text}`)
      .join('\n')}\n`;
  return `${(body['forgotten'] as Array<{ fact_id?: string; episode_id?: string; text?: string }>)
    .map((f) => `forgot ${f.fact_id ?? f.episode_id}${f.text ? `  "${f.text}"` : ''}`)
    .join('\n')}${body['commit'] ? `\ncommit ${body['commit']} (vault_undo_last takes it back)` : ''}\n`;
}

export async function forgetCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const factId = a.rest[0];
  const given = [factId, a.query, a.episode].filter((x) => x !== undefined);
  if (given.length !== 1) throw new UsageError('forget needs one of FACT_ID, --query TEXT or --episode ID');
  const args = {
    ...(factId !== undefined ? { fact_id: factId } : {}),
    ...(a.query !== undefined ? { query: a.query, confirm: a.confirm } : {}),
    ...(a.episode !== undefined ? { episode_id: a.episode } : {}),
    ...(a.reason !== undefined ? { reason: a.reason } : {}),
  };
  return callToolCommand(cfg, a, 'memory_forget', args, render, 'forget done');
}
