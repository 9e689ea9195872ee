// The status page in headless Chromium (Debian's, driven by puppeteer-core): a login link becomes an HttpOnly,
// SameSite=Strict session cookie and leaves the address bar; each section matches /v1/status, /v1/jobs, /v1/dream and
// git; the supervision tree is nested as the daemon runs it (each supervisor's strategy, each actor's state, restarts
// and mailbox) and counts the restarts a crash causes; a search typed with the keyboard shows heading path, lines,
// snippet and an Obsidian link; without the cookie, and with a used link, the login page.
// MEMVAULT_SCREENSHOTS=1 also writes docs/status-page-{desktop,phone}.png.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { writeDaemonInfo } from '../../../bin/client.js';
import { git, httpCall, REPO } from '../../helpers/daemon.js';
import { startToolDaemon } from '../tools/helpers/tool-daemon.js';
import { dayLog } from '../../dream/helpers/rig.js';
import type { SupervisionNode } from '../../../messages/supervision.js';
import type { SupervisorEvent } from '../../../supervisors/events.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const skip = CHROMIUM ? false : 'chromium is not installed (Debian package chromium; `make test-deps` installs it)';
if (skip) t.comment(`skipped: ${skip}`);

const FILES: Record<string, string | Buffer> = {
  'Projects/Heron survey.md': '# Heron survey\n\n## Counting at dawn\n\nThe grey herons were counted at the lake at dawn.\n',
  'People/Beta.md': '# Beta\n\nBeta runs the billing team.\n',
  'Inbox/Broken.md': Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]), // not UTF-8: indexed as a failure with a reason
  // the dream's journal: consolidated up to the 20th; the 21st's log is pending
  'Memory/log.md':
    '# Memory log\n\n- 2026-11-21T03:00:00Z watermark=2026-11-20 outcome=consolidated batch=2026-11-20 run=dream-20261121T030000Z-a1b2c3 pages=1 covered=1 uncovered=0\n',
  'Memory/Log/2026-11-21.md': dayLog('2026-11-21', ['The heron hide opens at six']),
};

/** What the page's tree shows for each node, in document order: the nesting, and the fields of its kind. */
interface Shown {
  id: string | null;
  kind: 'actor' | 'supervisor';
  parent: string | null;
  level: number;
  state: string | null;
  restarts: string | null;
  mailbox: string | null;
  strategy: string | null;
}

/** The same, from /v1/status's `supervision`: what the page must show. */
function expected(n: SupervisionNode, parent: string | null = null, level = 1): Shown[] {
  const own: Shown = {
    id: n.id,
    kind: n.kind,
    parent,
    level,
    state: level > 1 ? n.state : null,
    restarts: level > 1 ? String(n.restarts) : null,
    mailbox: n.kind === 'actor' ? String(n.mailbox) : null,
    strategy: n.kind === 'supervisor' ? n.strategy : null,
  };
  return n.kind === 'actor' ? [own] : [own, ...n.children.flatMap((c) => expected(c, n.id, level + 1))];
}

const shownTree = (p: Page): Promise<Shown[]> =>
  p.$$eval('#supervision li', (lis) =>
    lis.map((li) => {
      const field = (c: string) => li.querySelector(`:scope > .${c}, :scope > .stat > .${c}`)?.textContent ?? null;
      return {
        id: li.getAttribute('data-actor') ?? li.getAttribute('data-supervisor'),
        kind: li.hasAttribute('data-actor') ? ('actor' as const) : ('supervisor' as const),
        parent: li.parentElement?.closest('li[data-supervisor]')?.getAttribute('data-supervisor') ?? null,
        level: Number(li.getAttribute('data-level')),
        state: field('state'),
        restarts: field('restarts'),
        mailbox: field('mailbox'),
        strategy: field('strategy'),
      };
    }),
  );

const texts = (p: Page, sel: string) => p.$$eval(sel, (els) => els.map((e) => (e.textContent ?? '').trim()));

t.test('the status page, logged in through a link, in a real browser', { skip }, async (t) => {
  const s = await startToolDaemon(FILES);
  t.teardown(() => s.stop());
  const { url, token } = s.d;
  // an agent write and its undo: the commit list shows both, the write as undone. Both waited until indexed: the
  // page lists every file not indexed, and a note still pending (written, or removed by the undo) would be a row
  const w = await httpCall(
    url,
    'POST',
    '/v1/tools/vault_write',
    { path: 'Inbox/Egret.md', content: '# Egret\n\nWhite.\n', wait_indexed: true },
    { token, agent: 'page-test' },
  );
  t.equal(w.status, 200);
  t.equal(w.body.indexed, true, 'the write was indexed before the page is read');
  const u = await httpCall(url, 'POST', '/v1/tools/vault_undo_last', { wait_indexed: true }, { token, agent: 'page-test' });
  t.equal(u.status, 200);
  t.equal(u.body.indexed, true, 'so was the undo');

  const anon = await fetch(new URL('/', url));
  t.equal(anon.status, 401, 'no cookie: 401');
  t.match(await anon.text(), /memvault open/, 'no cookie: the login page says how to get a link');

  const browser: Browser = await puppeteer.launch({
    executablePath: CHROMIUM!,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });

  // the link as `memvault open --print` gives it (without a display it would print it anyway)
  writeDaemonInfo(s.cfg, { pid: process.pid, url, started_at: new Date().toISOString() });
  const open = spawnSync(
    process.execPath,
    [path.join(REPO, 'bin/memvault'), 'open', '--config', s.cfg.config_file!, '--vault', s.v.dir, '--print'],
    {
      encoding: 'utf8',
      env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' },
    },
  );
  t.equal(open.status, 0, open.stderr);
  const link = open.stdout.trim();
  t.match(link, new RegExp(`^${url}/login\\?code=[\\w.-]+$`), 'memvault open --print prints a login link');
  t.notOk(link.includes(token), 'the link does not hold the token');
  const res = await page.goto(link, { waitUntil: 'load' });
  t.equal(res?.status(), 200);
  t.equal(page.url(), `${url}/`, 'after login the address bar holds no code');
  const [cookie] = await browser.defaultBrowserContext().cookies();
  t.match(cookie, { name: 'memvault_session', httpOnly: true, sameSite: 'Strict' }, 'an HttpOnly, SameSite=Strict session cookie');
  const html = await page.content();
  t.notOk(html.includes(token), 'the token is nowhere in the page');
  t.equal(await page.$$eval('script', (x) => x.length), 0, 'no script');

  t.test('each section matches what the API says', async (t) => {
    const status = (await httpCall(url, 'GET', '/v1/status', undefined, { token })).body.index;
    t.equal(await page.$eval('#idx-documents', (e) => e.textContent), String(status.documents));
    t.equal(await page.$eval('#idx-chunks', (e) => e.textContent), String(status.chunks));
    t.equal(await page.$eval('#idx-notes', (e) => e.textContent), String(status.sources.vault));
    t.equal(await page.$eval('#idx-pending', (e) => e.textContent), String(status.pending));
    t.match(await page.$eval('#idx-model', (e) => e.textContent), status.model.name);
    t.equal(await page.$eval('#idx-embedder', (e) => e.textContent), status.embedder.state);
    t.equal(await page.$eval('#idx-vectors', (e) => e.textContent), 'available');

    const tree = (await httpCall(url, 'GET', '/v1/status', undefined, { token })).body.supervision as SupervisionNode;
    t.same(await shownTree(page), expected(tree), 'the supervision tree as /v1/status gives it, nested');
    const metrics = await (await fetch(new URL('/metrics', url))).text();
    const actors = [...metrics.matchAll(/^memvault_mailbox_depth\{actor="([^"]+)"\}/gm)].map((m) => m[1]).sort();
    t.same(
      (await page.$$eval('#supervision li[data-actor]', (l) => l.map((x) => x.getAttribute('data-actor')))).sort(),
      actors,
      'every actor main runs',
    );
    t.same(
      (await shownTree(page)).filter((n) => n.parent === 'ingest').map((n) => n.id),
      ['store', 'embedder', 'chunker', 'watcher', 'memory'],
      'the ingest pipeline under its own supervisor, in start order',
    );
    t.match(
      await page.$eval('#supervision li[data-supervisor="ingest"]', (e) => e.textContent),
      /rest_for_one[\s\S]*restarted with every child after it/,
    );
    t.ok(
      (await texts(page, '#supervision li[data-actor] > .state')).every((x) => x === 'running'),
      'each actor running',
    );

    const dream = (await httpCall(url, 'GET', '/v1/dream', undefined, { token })).body;
    t.equal(dream.watermark, '2026-11-20', 'the dream read its journal');
    t.equal(await page.$eval('#dream-watermark', (e) => e.textContent), dream.watermark, 'the watermark');
    t.same(dream.pending_days, ['2026-11-21']);
    t.equal(await page.$eval('#dream-pending', (e) => e.textContent), '1 — 2026-11-21', 'the days pending');
    t.equal(await page.$eval('#dream-running', (e) => e.textContent), dream.running ? `running ${dream.run_id}` : 'not running');
    t.equal(await page.$eval('#dream-last', (e) => e.textContent), dream.last_run === null ? 'none yet' : dream.last_run.outcome);
    const next = dream.next_eligible ? dream.next_eligible.replace('T', ' ').slice(0, 16) : 'not scheduled';
    t.equal(
      await page.$eval('#dream-next', (e) => e.textContent),
      `${next}${dream.next_reason ? ` · waiting: ${dream.next_reason}` : ''}`,
      'when the gate lets a run through, and why it waits',
    );

    const log = git(s.v.dir, 'log', '-n50', '--format=%H').trim().split('\n');
    const shas = await texts(page, '#commits tbody td:first-child');
    t.same(
      shas,
      log.map((h) => h.slice(0, 8)),
      'the last commits, newest first',
    );
    const kinds = await texts(page, '#commits tbody td.kind');
    const undo = await texts(page, '#commits tbody td.undo');
    t.same([kinds[0], kinds[1]], ['undo', 'agent'], 'the undo, then the write');
    t.equal(undo[1], 'undone', 'the reverted write says so');

    const files = await texts(page, '#files tbody tr');
    t.equal(files.length, 1, `the rows: ${JSON.stringify(files)}`);
    t.match(files[0], /Inbox\/Broken\.md\s*failed\s*not_utf8/, 'the file that is not indexed, with its reason');

    const jobs = (await httpCall(url, 'GET', '/v1/jobs', undefined, { token })).body.jobs as Array<{ name: string }>;
    t.same(
      await page.$$eval('#jobs tbody tr', (rows) => rows.map((r) => r.getAttribute('data-job'))),
      jobs.map((j) => j.name),
    );
  });

  t.test('a search typed with the keyboard shows results that open in Obsidian', async (t) => {
    await page.focus('#q');
    await page.keyboard.type('herons counted at dawn');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    t.match(page.url(), /\/\?q=herons/);
    const first = await page.$eval('#result-1', (e) => e.textContent ?? '');
    t.match(first, /Heron survey/);
    t.match(first, /Counting at dawn · lines \d+–\d+/, 'heading path and lines');
    t.match(first, /grey herons were counted/, 'the snippet');
    const vaultName = path.basename(s.v.dir);
    t.equal(
      await page.$eval('#result-1 a.open', (a) => a.getAttribute('href')),
      `obsidian://open?vault=${encodeURIComponent(vaultName)}&file=${encodeURIComponent('Projects/Heron survey')}`,
    );
    // click through: the button runs the next search
    await page.$eval('#q', (e) => ((e as unknown as { value: string }).value = ''));
    await page.type('#q', 'billing team');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    t.match(await page.$eval('#result-1', (e) => e.textContent ?? ''), /Beta/);
    if (process.env['MEMVAULT_SCREENSHOTS'] === '1') {
      await page.goto(`${url}/?q=${encodeURIComponent('herons counted at dawn')}`);
      await page.screenshot({ path: path.join(REPO, 'docs/status-page-desktop.png'), fullPage: true });
      // at phone width, the supervision tree (the search results are on the desktop one)
      await page.setViewport({ width: 390, height: 844, isMobile: true, deviceScaleFactor: 2 });
      await page.goto(`${url}/#supervision`);
      await page.screenshot({ path: path.join(REPO, 'docs/status-page-phone.png'), fullPage: false });
    }
  });

  t.test('is readable at phone width: nothing wider than the screen but the scrolling tables', async (t) => {
    await page.setViewport({ width: 390, height: 844 });
    await page.goto(`${url}/`);
    t.ok(await page.$eval('body', (b) => b.scrollWidth <= 390), 'no sideways scrolling of the page');
  });

  t.test('a crash shows in the tree: the actor and those after it in the pipeline restarted once', async (t) => {
    await page.setViewport({ width: 1280, height: 900 });
    const d = s.d.daemon;
    const want = ['chunker', 'watcher', 'memory']; // rest_for_one: the chunker and every actor started after it
    const restarted = new Set<string>();
    const done = new Promise<void>((resolve) => {
      const off = d.onSupervisor((e: SupervisorEvent) => {
        if (e.type === 'supervisor.child_restarted') restarted.add(e.child);
        if (want.every((a) => restarted.has(a))) {
          off();
          resolve();
        }
      });
    });
    await d.handles.chunker!.crash('the status page test crashes the chunker');
    await done;
    await page.goto(`${url}/`);
    const tree = (await httpCall(url, 'GET', '/v1/status', undefined, { token })).body.supervision as SupervisionNode;
    const shown = await shownTree(page);
    // mailbox depths are live here: the restarted watcher rescans, and the store may hold a message at one of the two
    // reads and not at the other (seen once in CI: 1 against 0). The first subtest compares them at rest.
    const settled = (nodes: Shown[]) => nodes.map((n) => ({ ...n, mailbox: n.mailbox === null ? null : 'live' }));
    t.same(settled(shown), settled(expected(tree)), 'the page and /v1/status agree after the restart');
    const restarts = Object.fromEntries(shown.filter((n) => n.kind === 'actor').map((n) => [n.id, n.restarts]));
    t.match(restarts, { store: '0', embedder: '0', chunker: '1', watcher: '1', memory: '1', gateway: '0', git: '0', scheduler: '0' });
  });

  t.test('without the cookie, or with a used link, the login page', async (t) => {
    const other = await browser.createBrowserContext();
    t.teardown(() => other.close());
    const p2 = await other.newPage();
    const r1 = await p2.goto(`${url}/`);
    t.equal(r1?.status(), 401);
    t.match(await p2.$eval('h1', (e) => e.textContent), 'memvault');
    t.match(await p2.content(), /needs a login link/);
    const r2 = await p2.goto(link);
    t.equal(r2?.status(), 401, 'a link works once');
    t.match(await p2.content(), /used already/);
    const tampered = link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const r3 = await p2.goto(tampered);
    t.equal(r3?.status(), 401, 'a forged link does not log in');
  });
});
