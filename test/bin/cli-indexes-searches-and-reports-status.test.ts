// The command line as a user runs it: index once, search (directly and through a running daemon), status, doctor.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import t from 'tap';
import { makeVault } from '../helpers/daemon.js';
import { BIN, memvault as cli } from '../helpers/run-cli.js';

t.test('index, then search and status without a daemon', async (t) => {
  const v = makeVault({}, { copyExample: true });
  t.teardown(() => v.cleanup());
  const idx = await cli(['index', '--vault', v.dir]);
  t.equal(idx.code, 0, idx.stderr);
  t.match(idx.stdout, /^indexed .* files processed/, 'the summary is the answer, on stdout');
  t.notMatch(idx.stderr, /files processed/, 'not on stderr');

  const s = await cli(['search', '--vault', v.dir, '--json', '-k', '3', 'who is climbing on weekends']);
  t.equal(s.code, 0, s.stderr);
  const r = JSON.parse(s.stdout);
  t.ok(r.results.length > 0);
  t.match(r.results[0].path, /^People\//, 'a person page answers');
  t.match(r.index, { documents: Number, pending: 0 });

  const human = await cli(['search', '--vault', v.dir, 'billing export bug']);
  t.match(human.stdout, /Billing export/);

  const st = await cli(['status', '--vault', v.dir, '--json', '--files']);
  t.equal(st.code, 0, st.stderr);
  const status = JSON.parse(st.stdout);
  t.equal(status.daemon, null);
  t.ok(status.files.length >= 15);
  t.ok(
    status.files.every((f: { state: string }) => f.state === 'indexed'),
    'every file indexed',
  );
  t.notOk(status.files.some((f: { path: string }) => f.path.startsWith('Templates/') || f.path.startsWith('.obsidian/')));

  v.write('Inbox/new idea.md', '# New idea\n\nA note written after indexing.\n');
  const st2 = JSON.parse((await cli(['status', '--vault', v.dir, '--json', '--files'])).stdout);
  t.match(
    st2.files.find((f: { path: string }) => f.path === 'Inbox/new idea.md'),
    { state: 'pending', reason: 'not_indexed_yet' },
  );
  t.equal(st2.index.pending, 1);
  // search says so too: with no daemon, a note on disk that is not indexed is pending, not "nothing there"
  const s2 = JSON.parse((await cli(['search', '--vault', v.dir, '--json', '--mode', 'bm25', 'written after indexing'])).stdout);
  t.match(s2.index, { pending: 1, files_total: status.files.length + 1 });
  const none = await cli(['search', '--vault', v.dir, '--mode', 'bm25', 'zzyzx']);
  t.match(none.stdout, /no matches in \d+ indexed notes — 1 file\(s\) on disk are not indexed and no daemon runs/);
});

t.test('start serves search; SIGTERM stops it cleanly', async (t) => {
  const v = makeVault({ 'Inbox/a.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  t.teardown(() => v.cleanup());
  t.equal((await cli(['index', '--vault', v.dir])).code, 0);
  const child = spawn(BIN, ['start', '--vault', v.dir, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  while (!/metrics:/.test(err)) await once(child.stderr, 'data');
  t.match(err, /memvault is serving/);
  const url = /(http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(err)?.[1];
  t.ok(url, 'prints where to scrape');
  // the banner's one-time login link opens the status page: a session cookie, then the page
  const link = /page:\s+(http:\/\/\S+\/login\?code=\S+)/.exec(err)?.[1];
  t.ok(link, 'prints a login link for the status page');
  const login = await fetch(link!, { redirect: 'manual' });
  t.equal(login.status, 303, 'the link logs in');
  t.match(login.headers.get('set-cookie'), /^memvault_session=\S+; Path=\/; HttpOnly; SameSite=Strict/);
  const page = await fetch(`${url}/`, { headers: { cookie: login.headers.get('set-cookie')!.split(';')[0]! } });
  t.equal(page.status, 200, 'the status page with the cookie');
  // the daemon answers; the CLI finds it through the data dir
  const s = await cli(['search', '--vault', v.dir, '--json', 'otters sleeping']);
  t.equal(JSON.parse(s.stdout).results[0]?.path, 'Inbox/a.md');
  const st = JSON.parse((await cli(['status', '--vault', v.dir, '--json'])).stdout);
  t.equal(st.daemon, url);
  t.match(st.supervision, { kind: 'supervisor', id: 'root', children: Array }, 'the running supervision tree');
  // the text form lists every actor the tree runs with its state, restarts and mailbox
  const text = (await cli(['status', '--vault', v.dir])).stdout;
  const actors: string[] = [];
  const walk = (n: { kind: string; id: string; children?: unknown[] }) =>
    n.kind === 'actor' ? actors.push(n.id) : n.children!.forEach((c) => walk(c as typeof n));
  walk(st.supervision);
  t.ok(actors.length >= 5, `${actors.length} actors`);
  for (const id of actors) t.match(text, new RegExp(`\\n\\s+${id}\\s+running, \\d+ restarts?, mailbox \\d+`), `${id} in the text status`);
  t.match(text, /root \(supervisor, one_for_one|root \(supervisor, rest_for_one|root \(supervisor, one_for_all/);
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  t.equal(code, 0, 'clean exit');
});

t.test('a bad config refuses to start with exit 78 and names the problem', async (t) => {
  const v = makeVault({});
  t.teardown(() => v.cleanup());
  v.write('../bad.yaml', 'embedder:\n  threads: -1\n');
  const r = await cli(['start', '--vault', v.dir, '--config', path.join(v.dir, '../bad.yaml')]);
  t.equal(r.code, 78);
  t.match(r.stderr, /embedder\.threads/);
});

t.test('doctor checks the model and sqlite-vec, and names the CPU features and int8 kernel', async (t) => {
  const v = makeVault({});
  t.teardown(() => v.cleanup());
  const r = await cli(['doctor', '--vault', v.dir]);
  t.match(r.stdout, /ok\s+sqlite-vec/);
  t.match(r.stdout, /ok\s+model\s+use-lite/);
  t.match(r.stdout, /ok\s+cpu\s+.+: avx2 (yes|no), avx512 (yes \(.+\)|no), vnni (yes \(.+\)|no)/, 'the flags that pick the int8 kernel');
  t.match(
    r.stdout,
    /ok\s+int8\s+u8×s8 kernel \S+ .*; quantize: int8 weights stored (signed|unsigned)/,
    'the kernel path and the encoding used',
  );
});
