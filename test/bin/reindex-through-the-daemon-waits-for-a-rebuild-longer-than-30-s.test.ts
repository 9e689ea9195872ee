// `memvault reindex` with a daemon running waits for its answer however long the rebuild takes: it used to give up
// after 30 s with a TimeoutError and a stack (exit 1) while the daemon went on building, and an operator's retry
// then started a second build beside the first. A stand-in daemon that answers after 31 s shows the wait. Its
// success line went to stderr as `memvault: the daemon rebuilt …`, in the form of the command's errors.
import t from 'tap';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';
import { STAND_IN_TOKEN, standInDaemon } from '../helpers/stand-in-daemon.js';

t.test('reindex through a daemon that takes 31 s answers what the daemon did and exits 0', { timeout: 90_000 }, async (t) => {
  const v = makeVault({ 'Projects/a.md': '# A\n\nsome text\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir);
  await standInDaemon(t, cfg, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/v1/reindex' && req.headers.authorization === `Bearer ${STAND_IN_TOKEN}`)
      return void setTimeout(() => res.end(JSON.stringify({ ok: true, documents: 3, ms: 31_000, error: null })), 31_000);
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { reason: 'not_found', message: req.url } }));
  });

  const r = await memvault(['reindex', '--vault', v.dir], { MEMVAULT_DATA_DIR: cfg.data_dir });
  t.equal(r.code, 0, r.stderr);
  // its result on stdout, without the `memvault:` prefix of its errors
  t.equal(r.stdout, 'the daemon rebuilt the index (3 notes, 31.0 s) and swapped it in\n');
  t.equal(r.stderr, '', 'nothing on stderr: no stack');
});
