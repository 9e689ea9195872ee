// The status page's supervision tree (nested lists: each supervisor with its strategy, each actor with its state,
// restarts and mailbox depth) and the dream's section (watermark, run state, pending days, next gate, last run).
import type { DreamStatus, DreamUnavailable } from '../../../messages/dream.js';
import type { SupervisionNode, SupervisorNode } from '../../../messages/supervision.js';
import type { SupervisionStatus } from '../supervision-status.js';
import { esc } from './escape.js';

const STRATEGY: Record<SupervisorNode['strategy'], string> = {
  one_for_one: 'a child that goes down is restarted alone',
  rest_for_one: 'a child that goes down is restarted with every child after it',
  one_for_all: 'a child that goes down restarts all of them',
};

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
const stateCls = (s: string) => (s === 'running' ? 'ok' : s === 'restarting' ? 'warn' : 'bad');
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function item(n: SupervisionNode, level: number): string {
  // each figure with its word is one unit (.stat does not wrap), so a phone breaks lines between them
  const health = `<span class="stat state ${stateCls(n.state)}">${esc(n.state)}</span> · <span class="stat"><span class="restarts">${n.restarts}</span> restart${n.restarts === 1 ? '' : 's'}</span>`;
  if (n.kind === 'actor')
    return `<li data-actor="${esc(n.id)}" data-level="${level}"><span class="name">${esc(n.id)}</span> <span class="muted">actor</span> — ${health} · <span class="stat">mailbox <span class="mailbox">${n.mailbox}</span></span></li>`;
  const head = `<span class="name">${esc(n.id)}</span> <span class="muted">supervisor</span> — ${level > 1 ? `${health} · ` : ''}<code class="strategy">${esc(n.strategy)}</code>
<span class="muted rule">${esc(STRATEGY[n.strategy])}; more than ${plural(n.intensity, 'restart')} in ${seconds(n.period_ms)} and it gives up${level > 1 ? ', restarted by its parent' : ''}</span>`;
  const kids = n.children.map((c) => item(c, level + 1)).join('');
  return `<li data-supervisor="${esc(n.id)}" data-level="${level}">${head}${kids ? `<ul aria-label="supervised by ${esc(n.id)}">${kids}</ul>` : ''}</li>`;
}

export function supervisionSection(s: SupervisionStatus): string {
  const head = '<h2 id="h-supervision">Supervision tree</h2>';
  const body =
    'ok' in s
      ? `<p class="bad" id="supervision-unavailable">${esc(s.reason)} — ${esc(s.message)}</p>`
      : `<p class="muted">Each actor runs in its own thread; its supervisor restarts it when it goes down. Mailbox: messages queued or being handled.</p><ul class="tree">${item(s, 1)}</ul>`;
  return `<section id="supervision" aria-labelledby="h-supervision">${head}${body}</section>`;
}

function lastRun(r: DreamStatus['last_run']): string {
  if (!r) return 'none yet';
  const what = r.outcome === 'consolidated' ? ` · ${plural(r.pages, 'page')}, ${r.covered} facts covered, ${r.uncovered} not` : '';
  return `<span class="outcome">${esc(r.outcome)}</span> ${esc(r.at.replace('T', ' ').slice(0, 16))} · batch ${esc(r.batch)}${what}${r.reason ? ` — ${esc(r.reason)}` : ''} <span class="muted">(${esc(r.id)})</span>`;
}

export function dreamSection(d: DreamStatus | DreamUnavailable | null): string {
  if (d === null) return '';
  const head = '<h2 id="h-dream">The dream (consolidation)</h2>';
  if ('ok' in d)
    return `<section id="dream" aria-labelledby="h-dream">${head}<p class="warn" id="dream-unavailable">${esc(d.reason)} — ${esc(d.message)}</p></section>`;
  const days = d.pending_days;
  const shown = days.slice(0, 7).map(esc).join(', ') + (days.length > 7 ? ` and ${days.length - 7} more` : '');
  const next = d.next_eligible ? esc(d.next_eligible.replace('T', ' ').slice(0, 16)) : 'not scheduled';
  const failing = Object.entries(d.failures);
  return `<section id="dream" aria-labelledby="h-dream">${head}<dl>
<dt>Watermark</dt><dd id="dream-watermark">${d.watermark ? esc(d.watermark) : 'none yet'}</dd>
<dt>Now</dt><dd id="dream-running">${d.running ? `running <code>${esc(d.run_id)}</code>` : 'not running'}${d.sprint ? ' · catching up' : ''}</dd>
<dt>Days pending</dt><dd id="dream-pending">${days.length}${days.length ? ` — ${shown}` : ''}</dd>
<dt>Next eligible</dt><dd id="dream-next">${next}${d.next_reason ? ` · waiting: <span class="reason">${esc(d.next_reason)}</span>` : ''}</dd>
<dt>Last run</dt><dd id="dream-last">${lastRun(d.last_run)}</dd>
${failing.length ? `<dt>Failing batches</dt><dd id="dream-failures">${failing.map(([b, n]) => `${esc(b)} (${plural(n, 'failure')})`).join(', ')}</dd>` : ''}</dl></section>`;
}
