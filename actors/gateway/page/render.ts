// The status page and the login page as HTML strings: server-rendered, no script at all, escaped field by field.
// Plain and readable on a phone: one column, system fonts, tables that scroll sideways when they must.
import type { SearchResponse } from '../index-view.js';
import { esc } from './escape.js';
import { dreamSection, supervisionSection } from './render-tree.js';
import type { CommitRow, StatusData } from './status-data.js';

export { esc } from './escape.js';

const STYLE = `
:root{color-scheme:light dark;--fg:#1d2125;--muted:#5c6670;--line:#d8dde2;--bg:#fbfbfa;--ok:#1c7c3c;--warn:#a15c00;--bad:#b3261e;--link:#0b5cad}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8ea;--muted:#a3abb3;--line:#3a4148;--bg:#16191c;--ok:#5fc27e;--warn:#e0a040;--bad:#ff8a80;--link:#8cc4ff}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:60rem;margin:0 auto;padding:1rem}header{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem;margin:1.75rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
.muted{color:var(--muted)}a{color:var(--link)}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}dt{color:var(--muted)}dd{margin:0}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.95rem}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted)}code{font-size:.9em}.ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}
form{display:flex;gap:.5rem;flex-wrap:wrap}input[type=search]{flex:1 1 16rem;font:inherit;padding:.5rem;border:1px solid var(--line);border-radius:.375rem;background:transparent;color:inherit}
button{font:inherit;padding:.5rem 1rem;border-radius:.375rem;border:1px solid var(--line);background:var(--link);color:#fff;cursor:pointer}
ol.results{padding-left:1.25rem}ol.results li{margin:.75rem 0}.snippet{margin:.25rem 0 0;white-space:pre-wrap}
:focus-visible{outline:3px solid var(--link);outline-offset:2px}
ul.tree,ul.tree ul{list-style:none;margin:0;padding:0}ul.tree ul{margin:.25rem 0 .25rem .4rem;padding-left:1rem;border-left:2px solid var(--line)}
ul.tree li{margin:.3rem 0}ul.tree .stat{white-space:nowrap}ul.tree .name{font-weight:600}ul.tree .rule{display:block;font-size:.9rem}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

const cls = (good: boolean, warn = false) => (good ? 'ok' : warn ? 'warn' : 'bad');
const ago = (ms: number | null) => (ms === null ? '—' : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`);

/** The page a request without a session gets (status 401). */
export function loginPage(why: string | null): string {
  return page(
    'memvault — log in',
    `<h1>memvault</h1>${why ? `<p class="bad" role="alert">${esc(why)}</p>` : ''}
<p>This page needs a login link. On the machine running memvault, run</p><pre><code>memvault open --vault DIR</code></pre>
<p>(or <code>memvault open --print</code> to print the link). <code>make run</code> prints one when it starts. A link works once, for ten minutes; the session it starts lasts twelve hours.</p>`,
  );
}

function obsidianLink(vaultName: string, notePath: string): string {
  return `obsidian://open?vault=${encodeURIComponent(vaultName)}&file=${encodeURIComponent(notePath.replace(/\.md$/i, ''))}`;
}

export function searchSection(q: string, r: SearchResponse | null, vaultName: string): string {
  const form = `<form method="get" action="/" role="search"><label for="q" class="muted">Search the vault</label><input type="search" id="q" name="q" value="${esc(q)}" placeholder="What are you looking for?"><button type="submit">Search</button></form>`;
  if (!r) return `<section id="search" aria-labelledby="h-search"><h2 id="h-search">Search</h2>${form}</section>`;
  const items = r.results
    .map((h, i) => {
      const where = `${h.heading_path.length ? esc(h.heading_path.join(' › ')) : '<span class="muted">(top)</span>'} · lines ${h.start_line}–${h.end_line}`;
      const open = h.path ? ` · <a class="open" href="${esc(obsidianLink(vaultName, h.path))}">open in Obsidian</a>` : '';
      return `<li id="result-${i + 1}" class="result"><strong>${esc(h.title)}</strong> <span class="muted">${esc(h.path ?? h.source_type)}</span><br><span class="where">${where}</span>${open}<p class="snippet">${esc(h.snippet)}</p></li>`;
    })
    .join('');
  const note = r.degraded ? `<p class="warn">${esc(r.degraded)}</p>` : '';
  const list = r.results.length ? `<ol class="results">${items}</ol>` : '<p>No results.</p>';
  return `<section id="search" aria-labelledby="h-search"><h2 id="h-search">Search</h2>${form}<p class="muted" id="search-summary">${r.results.length} result(s), ${esc(r.mode)}, ${r.took_ms} ms</p>${note}${list}</section>`;
}

function commitsSection(c: CommitRow[] | { error: string }): string {
  const head = '<h2 id="h-commits">Last 50 changes</h2>';
  if (!Array.isArray(c)) return `<section id="commits" aria-labelledby="h-commits">${head}<p class="bad">${esc(c.error)}</p></section>`;
  const rows = c
    .map(
      (x) =>
        `<tr><td><code>${esc(x.sha.slice(0, 8))}</code></td><td>${esc(x.at.replace('T', ' ').slice(0, 16))}</td><td class="kind">${esc(x.kind)}</td><td>${esc(x.who)}</td><td>${esc(x.subject)}</td><td class="undo ${x.undo === 'undone' ? 'muted' : ''}">${esc(x.undo)}</td></tr>`,
    )
    .join('');
  return `<section id="commits" aria-labelledby="h-commits">${head}<div class="scroll"><table><thead><tr><th scope="col">Commit</th><th scope="col">When (UTC)</th><th scope="col">Kind</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Undo</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

export function statusPage(d: StatusData, q: string, found: SearchResponse | null): string {
  const i = d.index;
  const model = i.model ? `${i.model.name}@${i.model.version} (${i.model.dim}-dim)` : 'none recorded';
  const index = `<section id="index" aria-labelledby="h-index"><h2 id="h-index">Index</h2><dl>
<dt>Notes</dt><dd id="idx-notes">${i.sources['vault'] ?? 0}</dd><dt>Documents</dt><dd id="idx-documents">${i.documents}</dd>
<dt>Chunks</dt><dd id="idx-chunks">${i.chunks}</dd><dt>Pending files</dt><dd id="idx-pending" class="${cls(i.pending === 0, true)}">${i.pending}</dd>
<dt>Oldest pending</dt><dd id="idx-oldest">${ago(i.oldest_pending_age_ms)}</dd><dt>Model</dt><dd id="idx-model">${esc(model)}</dd>
<dt>Embedder</dt><dd id="idx-embedder" class="${cls(i.embedder.state === 'ready', i.embedder.state === 'starting')}">${esc(i.embedder.state)}${i.embedder.reason ? ` — ${esc(i.embedder.reason)}` : ''}</dd>
<dt>Vector search</dt><dd id="idx-vectors" class="${cls(i.vector_search.available)}">${i.vector_search.available ? 'available' : `unavailable — ${esc(i.vector_search.reason)}`}</dd>
<dt>Episodes pending</dt><dd id="idx-episodes">${i.episodes.pending}</dd><dt>Last indexed</dt><dd>${esc(i.last_indexed_at ?? 'never')}</dd>
${d.llm ? `<dt>LLM</dt><dd id="idx-llm">${esc(d.llm.state)}${d.llm.reason ? ` — ${esc(d.llm.reason)}` : ''}</dd>` : ''}
${d.git?.problem ? `<dt>Git</dt><dd id="idx-git" class="bad">${esc(d.git.problem.reason)} — ${esc(d.git.problem.message)}</dd>` : ''}</dl></section>`;
  const bad = d.files.filter((f) => f.state !== 'indexed');
  const files = `<section id="files" aria-labelledby="h-files"><h2 id="h-files">Files not indexed</h2>${
    bad.length
      ? `<div class="scroll"><table><thead><tr><th scope="col">File</th><th scope="col">State</th><th scope="col">Reason</th></tr></thead><tbody>${bad
          .map(
            (f) =>
              `<tr><td>${esc(f.path)}</td><td>${esc(f.state)}</td><td>${esc(f.reason)}${f.message ? ` — ${esc(f.message)}` : ''}</td></tr>`,
          )
          .join('')}</tbody></table></div>`
      : '<p class="ok">Every file is indexed.</p>'
  }</section>`;
  const jobs = d.jobs
    ? `<section id="jobs" aria-labelledby="h-jobs"><h2 id="h-jobs">Scheduled jobs</h2><div class="scroll"><table><thead><tr><th scope="col">Job</th><th scope="col">State</th><th scope="col">Schedule</th><th scope="col">Next run</th><th scope="col">Last run</th></tr></thead><tbody>${d.jobs.jobs
        .map(
          (j) =>
            `<tr data-job="${esc(j.name)}"><th scope="row">${esc(j.name)}</th><td>${esc(j.state)}${j.reason ? ` — ${esc(j.reason)}` : ''}</td><td><code>${esc(j.schedule)}</code> ${esc(j.tz)}</td><td>${esc(j.next_run ?? '—')}</td><td>${j.last_run ? `${esc(j.last_run.outcome)} ${esc(j.last_run.at)}` : '—'}</td></tr>`,
        )
        .join('')}</tbody></table></div></section>`
    : '';
  const name = d.vault.split(/[\\/]/).filter(Boolean).pop() ?? d.vault;
  return page(
    `memvault — ${name}`,
    `<header><h1>memvault</h1><span class="muted">${esc(d.vault)} · version ${esc(d.version)}</span></header>
${searchSection(q, found, name)}${index}${supervisionSection(d.supervision)}${commitsSection(d.commits)}${files}${jobs}${dreamSection(d.dream)}`,
  );
}
