// `memvault search`: through the running daemon when there is one, else directly on the index file.
import type { SearchResponse } from '../../actors/gateway/index-view.js';
import { configFor, EXIT, UsageError, type Args } from '../args.js';
import { callDaemon, findDaemon } from '../client.js';
import { searchBody } from '../../actors/gateway/api-schema.js';

export async function searchCommand(a: Args): Promise<number> {
  const query = a.rest.join(' ').trim();
  if (!query) throw new UsageError('search needs a QUERY');
  const cfg = configFor(a, { vaultRequired: false });
  const body = searchBody.parse({ query, k: a.k, mode: a.mode, group: a.group });
  let r: SearchResponse;
  const daemon = await findDaemon(cfg);
  if (daemon) {
    r = await callDaemon<SearchResponse>(daemon, 'POST', '/v1/search', body);
  } else {
    const { fileStates, loadQueryModel, openDirect, withDiskPending } = await import('../direct.js'); // only without a daemon: it loads the model code
    const view = openDirect(cfg);
    if (!view) {
      process.stderr.write(`memvault: ${cfg.vault} has no index yet: run \`memvault index --vault ${cfg.vault}\` or start the daemon\n`);
      return EXIT.failure;
    }
    if ((body.mode ?? cfg.search.default_mode) !== 'bm25') await loadQueryModel(view, cfg);
    r = await view.search(body);
    r = { ...r, index: withDiskPending(r.index, await fileStates(cfg, view)) }; // a stat walk: ~30 ms at 5k notes
    view.close();
  }
  if (a.json) {
    process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    return EXIT.ok;
  }
  const lines: string[] = [];
  if (r.degraded) lines.push(`note: ${r.mode} search only — ${r.degraded}`);
  if (r.results.length === 0) {
    const i = r.index;
    lines.push(
      !daemon && i.pending > 0
        ? `no matches in ${i.documents} indexed notes — ${i.pending} file(s) on disk are not indexed and no daemon runs: start it, or run \`memvault index\``
        : i.pending > 0 || !i.reconciled
          ? `no matches yet — ${i.pending} file(s) are still being indexed; try again shortly`
          : `no matches in ${i.documents} indexed notes`,
    );
  }
  r.results.forEach((h, n) => {
    const heads = h.heading_path[0] === h.title ? h.heading_path.slice(1) : h.heading_path; // an H1 repeating the title
    const where = heads.length ? ` › ${heads.join(' › ')}` : '';
    // a note by path and lines; an episode by its id and time; a fact by its id, with its day log's line
    const place =
      h.episode_id !== undefined
        ? `${h.episode_id}${h.at ? ` @ ${h.at}` : ''}`
        : h.fact_id !== undefined
          ? `${h.fact_id}  ${h.path}:${h.line}`
          : `${h.path}:${h.start_line}-${h.end_line}`;
    lines.push(`${n + 1}. ${place}  ${h.title}${where}  (${h.score.toFixed(3)}${h.sensitive ? ', sensitive' : ''})`);
    lines.push(`   ${h.snippet.replace(/\s+/g, ' ').slice(0, 220)}`);
    for (const o of h.also ?? []) {
      const at = o.heading_path.length ? ` ${o.heading_path.at(-1)}` : '';
      lines.push(`   also :${o.start_line}-${o.end_line}${at}  (${o.score.toFixed(3)})`);
    }
  });
  lines.push(`[${r.mode} · ${r.took_ms} ms · ${r.index.documents} notes, ${r.index.chunks} chunks, ${r.index.pending} pending]`);
  process.stdout.write(lines.join('\n') + '\n');
  return EXIT.ok;
}
