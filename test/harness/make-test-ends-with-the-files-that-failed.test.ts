// `make test` ends with the test files that failed and their failing points (test/helpers/failed-files.ts), read from
// the TAP tap saved for each file: a CI log's tail showed only the chaos run's summary and `Error 1`. The TAP here is
// what real tap test files print, run in their own node processes: one that passes, one with a failing assertion in a
// nested subtest, and one killed in the middle of its output.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { failedFiles } from '../helpers/failed-files.js';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** What a tap test file with this body prints on stdout (it may exit non-zero or be killed). */
async function tapOf(body: string): Promise<string> {
  const source = `import t from 'tap';\n${body}`;
  try {
    return (await run(process.execPath, ['--input-type=module', '-e', source], { cwd: REPO })).stdout;
  } catch (err) {
    return (err as { stdout: string }).stdout;
  }
}

t.test('the failed files are listed with their failing assertions; passing files are not', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-results-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'dist/test/a'), { recursive: true });
  const save = (name: string, tap: string) => writeFileSync(path.join(dir, 'dist/test/a', `${name}.test.js.tap`), tap);
  save('passes', await tapOf(`t.test('fine', async (t) => { t.equal(1, 1, 'one is one'); });`));
  save(
    'fails',
    await tapOf(
      `t.test('outer', async (t) => { t.pass('first');
         t.test('inner', async (t) => { t.equal('kiln', 'glaze', 'the word read back'); }); });
       t.test('after', async (t) => t.pass('still runs'));`,
    ),
  );
  save(
    'killed',
    await tapOf(`t.test('long', async (t) => { t.pass('started'); await new Promise((r) => setTimeout(r, 50));
       process.kill(process.pid, 'SIGKILL'); });`),
  );

  const failed = failedFiles(dir);
  t.same(
    failed.map((f) => f.file),
    ['dist/test/a/fails.test.js', 'dist/test/a/killed.test.js'],
    'the failing and the killed file, not the passing one',
  );
  const fails = (failed[0]?.excerpt ?? []).join('\n');
  t.match(fails, /not ok 1 - the word read back/, 'the failing assertion');
  t.match(fails, /\+kiln/, 'with its diff');
  t.match(fails, /not ok \d+ - inner/, 'and the subtests it failed, by name');
  t.notMatch(fails, /still runs|one is one/, 'no passing point');
  t.ok(fails.split('\n').filter((l) => /isToplevel/.test(l)).length === 0, "a failed subtest's own diagnostics are left out");
  const killed = (failed[1]?.excerpt ?? []).join('\n');
  t.match(killed, /ended like this/, 'a file killed mid-run says so');
  t.match(killed, /ok 1 - started/, 'and shows where it stopped');
});

t.test('the command prints the list at the end and exits 1, or prints nothing and exits 0', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-results-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const script = path.join(REPO, 'dist/test/helpers/failed-files.js');
  writeFileSync(path.join(dir, 'ok.test.js.tap'), await tapOf(`t.pass('fine');`));
  const clean = await run(process.execPath, [script, dir]);
  t.equal(clean.stdout, '', 'nothing when all passed');
  writeFileSync(path.join(dir, 'bad.test.js.tap'), await tapOf(`t.equal(1, 2, 'one is two');`));
  const bad = await run(process.execPath, [script, dir]).then(
    () => ({ code: 0, stdout: '' }),
    (e: { code: number; stdout: string }) => e,
  );
  t.equal(bad.code, 1);
  t.match(bad.stdout, /1 test file\(s\) failed:[\s\S]*== bad\.test\.js[\s\S]*not ok 1 - one is two[\s\S]*failed: bad\.test\.js\n$/);
});
