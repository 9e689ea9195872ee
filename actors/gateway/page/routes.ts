// The status page's routes: GET / (the page; `?q=` adds search results), GET /login?code= (a one-time login code
// becomes a session cookie, then a redirect to / so the code leaves the address bar). Without a session: the login
// page, 401. Read-only: there are no state changes from the page, so no CSRF token is needed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JobsList } from '../../../messages/to-scheduler.js';
import type { FileStatus } from '../../../messages/store.js';
import type { IndexState, SearchResponse } from '../index-view.js';
import type { LlmStatus } from '../llm-status.js';
import type { GitStatus } from '../../git-writer/index-lock.js';
import { loginPage, statusPage } from './render.js';
import { sessionCookie, type Sessions } from './session.js';
import { recentCommits } from './status-data.js';
import { fail } from '../../../messages/common.js';
import type { DreamStatus, DreamUnavailable } from '../../../messages/dream.js';
import type { SupervisionStatus } from '../supervision-status.js';

export interface PageDeps {
  sessions: Sessions;
  vault: string;
  version: string;
  state: () => IndexState;
  files: () => FileStatus[];
  supervision: () => Promise<SupervisionStatus>;
  llm?: () => LlmStatus;
  git?: () => GitStatus;
  jobs?: () => Promise<JobsList>;
  dream?: () => Promise<DreamStatus | DreamUnavailable>;
  search: (query: string) => Promise<SearchResponse>;
}

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // no script runs on the page at all; nothing loads from elsewhere; never framed
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function html(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): number {
  res.writeHead(status, { ...HEADERS, ...extra });
  res.end(body);
  return status;
}

/** Serves `/` and `/login`; null for any other path. */
export function routePage(d: PageDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> | null {
  if (url.pathname !== '/' && url.pathname !== '/login') return null;
  return serve();

  async function serve(): Promise<number> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return html(res, 405, loginPage('Only GET is served here.'), { allow: 'GET' });
    if (url.pathname === '/login') {
      const r = d.sessions.redeem(url.searchParams.get('code') ?? '');
      if (!r.ok) {
        const why =
          r.reason === 'used'
            ? 'That login link was used already: a link works once.'
            : r.reason === 'expired'
              ? 'That login link has expired (links last ten minutes).'
              : 'That login link is not valid for this daemon.';
        return html(res, 401, loginPage(why));
      }
      const secure = req.headers['x-forwarded-proto'] === 'https';
      res.writeHead(303, {
        location: '/',
        'set-cookie': sessionCookie(r.cookie, secure),
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
      res.end();
      return 303;
    }
    if (!d.sessions.valid(req.headers.cookie)) return html(res, 401, loginPage(null));
    const q = (url.searchParams.get('q') ?? '').trim().slice(0, 500);
    const [supervision, commits, jobs, dream, found] = await Promise.all([
      d.supervision(),
      recentCommits(d.vault, 50),
      d.jobs ? d.jobs().catch(() => null) : Promise.resolve(null),
      d.dream
        ? d.dream().catch((err: Error) => fail('unavailable', `the scheduler did not answer: ${err.message}`))
        : Promise.resolve(null),
      q ? d.search(q) : Promise.resolve(null),
    ]);
    const data = {
      vault: d.vault,
      version: d.version,
      index: d.state(),
      llm: d.llm ? d.llm() : null,
      git: d.git ? d.git() : null,
      supervision,
      commits,
      files: d.files(),
      jobs,
      dream,
    };
    return html(res, 200, statusPage(data, q, found));
  }
}
