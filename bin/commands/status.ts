// `memvault status`: counts, pending, model, last error, and with a running daemon its supervision tree (each actor's
// state, restarts and mailbox); `--files` lists every note with its state and reason.
import path from 'node:path';
import type { IndexState } from '../../actors/gateway/index-view.js';
import { llmStatusWithoutDaemon, type LlmStatus } from '../../actors/gateway/llm-status.js';
import { gitStatus, type GitStatus } from '../../actors/git-writer/index-lock.js';
import type { SupervisionStatus } from '../../actors/gateway/supervision-status.js';
import type { SupervisionNode } from '../../messages/supervision.js';
import { SOURCE_TYPES } from '../../messages/episodes.js';
import { configFor, EXIT, type Args } from '../args.js';
import { callDaemon, findDaemon } from '../client.js';
import { claimHolder } from '../../main/pid-claim.js';
import { pidAlive } from '../../supervisors/runtime/pid-alive.js';
import { fileStates, openDirect, type FileState, withDiskPending } from '../direct.js';

export async function statusCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const daemon = await findDaemon(cfg);
  // a daemon between its claim (daemon.starting) and daemon.json: starting, not "not running" (loading its model,
  // reconciling the vault — a large vault takes a while, and the counts below are the index as it was)
  const held = daemon ? null : claimHolder(path.join(cfg.data_dir, 'daemon.starting'));
  const starting = held !== null && pidAlive(held) ? held : null;
  const view = openDirect(cfg);
  let index: IndexState | null = null;
  let llm: LlmStatus = llmStatusWithoutDaemon(cfg);
  let supervision: SupervisionStatus | undefined;
  let git: GitStatus | undefined;
  if (daemon) {
    const s = await callDaemon<{ index: IndexState; llm?: LlmStatus; git?: GitStatus; supervision?: SupervisionStatus }>(
      daemon,
      'GET',
      '/v1/status',
    );
    index = s.index;
    llm = s.llm ?? llm;
    git = s.git;
    supervision = s.supervision;
  } else if (view) index = view.state();
  git ??= gitStatus(cfg.vault); // no daemon (or one from before `git` was in its status): the same stat, here
  const files: FileState[] = a.files || !daemon ? await fileStates(cfg, view) : [];
  if (!daemon && index) index = withDiskPending(index, files);
  view?.close();
  const out = {
    vault: cfg.vault,
    daemon: daemon ? daemon.url : null,
    ...(starting !== null ? { daemon_starting: { pid: starting } } : {}),
    index,
    llm,
    git,
    ...(supervision ? { supervision } : {}),
    ...(a.files ? { files } : {}),
  };
  if (a.json) {
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return EXIT.ok;
  }
  const state = daemon
    ? `running at ${daemon.url}`
    : starting !== null
      ? `starting (pid ${starting}); the index below is as it was — run status again once it listens`
      : 'not running';
  const l: string[] = [`vault:    ${cfg.vault}`, `daemon:   ${state}`];
  if (!index) l.push('index:    none yet (run `memvault index` or start the daemon)');
  else {
    l.push(`index:    ${index.documents} documents, ${index.chunks} chunks, ${index.vectors} vectors; ${index.pending} files pending`);
    const e = index.episodes;
    const by = [...SOURCE_TYPES].sort().map((s) => `${s} ${index!.sources[s] ?? 0}`);
    const oldest = e.oldest_pending_age_ms !== null ? ` (oldest ${(e.oldest_pending_age_ms / 1000).toFixed(1)} s)` : '';
    l.push(
      `episodes: ${e.pending} pending${oldest}${e.replaying ? ', replaying the journal' : ''}; ${by.join(', ')}${e.failed ? `; ${e.failed} failed` : ''}`,
    );
    l.push(`indexed:  ${index.last_indexed_at ?? 'never'}`);
    l.push(`model:    ${index.model ? `${index.model.name}@${index.model.version} (${index.model.dim}-dim)` : 'none recorded'}`);
    if (index.vector_search.reason?.startsWith('no_daemon:')) l.push(`vectors:  not served — ${notServed(index)}`);
    else if (index.vector_search.reason) l.push(`vectors:  unavailable — ${index.vector_search.reason}`);
  }
  l.push(`llm:      ${llm.state}${llm.reason ? ` — ${llm.reason}` : ''}`);
  if (git.problem) l.push(`git:      ${git.problem.reason} — ${git.problem.message}`);
  if (supervision) l.push(...treeLines(supervision));
  const bad = files.filter((f) => f.state === 'failed' || f.state === 'skipped');
  if (bad.length) l.push(`problems: ${bad.length} file(s) not indexed; \`memvault status --files\` lists them`);
  if (a.files)
    for (const f of files)
      l.push(`  ${f.state.padEnd(8)} ${f.path}${f.reason ? `  (${f.reason}${f.message ? `: ${f.message}` : ''})` : ''}`);
  process.stdout.write(l.join('\n') + '\n');
  return EXIT.ok;
}

/** With no daemon: that nothing serves vector search, and what the index holds for a search that loads the model. */
function notServed(index: IndexState): string {
  const m = index.model;
  const holds =
    index.vectors === 0
      ? 'the index holds no vectors'
      : `the index holds ${index.vectors} vectors${m ? ` built with ${m.name}@${m.version}` : ''}`;
  return `no daemon runs, so no model is loaded (\`memvault search\` loads one for its own query); ${holds}`;
}

/** The supervision tree as indented lines: each supervisor with its strategy, each actor with state, restarts, mailbox. */
export function treeLines(s: SupervisionStatus): string[] {
  if ('ok' in s) return [`actors:   unknown — ${s.reason}: ${s.message}`];
  const out = ['actors:'];
  const walk = (n: SupervisionNode, depth: number) => {
    const pad = '  '.repeat(depth);
    const health = `${n.state}, ${n.restarts} restart${n.restarts === 1 ? '' : 's'}`;
    if (n.kind === 'actor') out.push(`${pad}${n.id.padEnd(Math.max(1, 24 - pad.length))} ${health}, mailbox ${n.mailbox}`);
    else {
      out.push(`${pad}${n.id} (supervisor, ${n.strategy}${depth > 1 ? `; ${health}` : ''})`);
      for (const c of n.children) walk(c, depth + 1);
    }
  };
  walk(s, 1);
  return out;
}
