// A mistyped `--vault` used to become a new empty vault: `start` made the data dir inside it, served it, and answered
// every search with nothing. Commands that would start a daemon or make the data dir now refuse in one line with
// `vault_missing` and leave the folder missing; doctor says why the data dir cannot be made.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { configFile } from '../helpers/config-file.js';
import { memvault as cli } from '../helpers/run-cli.js';

t.test('start, index, reindex, prune, agents and a tool command refuse a missing vault', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-test-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const missing = path.join(root, 'Notse');
  const commands = [['start', '--listen', '127.0.0.1:0'], ['index'], ['reindex'], ['prune'], ['agents', 'list'], ['facts']];
  for (const args of commands) {
    const r = await cli([...args, '--vault', missing]);
    t.equal(r.code, 1, `${args[0]} exits 1`);
    t.equal(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('memvault:')).length,
      1,
      `${args[0]}: one line`,
    );
    t.match(r.stderr, `memvault: ${missing} is not a folder (vault_missing)`, `${args[0]} names the folder and the reason`);
    t.notOk(existsSync(missing), `${args[0]} made nothing`);
  }
  const d = await cli(['doctor', '--vault', missing]);
  t.match(d.stdout, new RegExp(`\\nFAIL\\s+data dir\\s+${missing}/\\.memvault cannot be made: it is inside the missing vault\\n`));
});

t.test('prune on a vault with no index yet says so instead of a database error', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'memvault-test-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const r = await cli(['prune', '--vault', root]);
  t.equal(r.code, 1);
  t.match(r.stderr, `memvault: ${root} has no index yet, so nothing to prune`);
  t.notMatch(r.stderr, /TypeError|directory does not exist/);
});

t.test("a missing vault named by the config file's vault: says to fix that line, not --vault", async (t) => {
  const file = configFile(t, (dir) => `vault: ${path.join(dir, 'Notse')}\nlisten: 127.0.0.1:0\n`);
  const missing = path.join(path.dirname(file), 'Notse');
  for (const args of [['start'], ['index'], ['reindex']]) {
    const r = await cli([...args, '--config', file]);
    t.equal(r.code, 1, `${args[0]} exits 1`);
    t.match(
      r.stderr,
      `memvault: ${missing} is not a folder (vault_missing): create it first, or fix \`vault:\` in ${file}\n`,
      `${args[0]} points at the file's line`,
    );
    t.notOk(existsSync(missing), `${args[0]} made nothing`);
  }
  // --vault given beside the file: the flag is what named the folder
  const r = await cli(['start', '--config', file, '--vault', missing]);
  t.match(r.stderr, `memvault: ${missing} is not a folder (vault_missing): create it first, or fix --vault\n`);
});
