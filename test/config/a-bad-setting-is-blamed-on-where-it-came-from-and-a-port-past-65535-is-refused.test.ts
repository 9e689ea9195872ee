// An operator reads a config error to find what to fix. A bad MEMVAULT_LISTEN or --listen was said as "<the file> is
// invalid: listen: …" though the file was fine; a port past 65535 passed validation and the gateway's thread failed at
// start (exit 1, ERR_SOCKET_BAD_PORT); a YAML syntax error ended in a dangling "at line 4, column 14:".
import { existsSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';
import { memvault as cli } from '../helpers/run-cli.js';

function problemsOf(t: Test, fn: () => unknown): ConfigError {
  const err = t.throws(fn) as unknown as ConfigError;
  t.ok(err instanceof ConfigError, 'a ConfigError');
  return err;
}

t.test('a listen address from the environment or a flag is blamed on it, not on the file', async (t) => {
  const file = configFile(t, 'vault: /v\nlisten: 127.0.0.1:9000\n');
  const fromEnv = problemsOf(t, () => loadConfig({ file, env: { MEMVAULT_LISTEN: '7450' } }));
  t.equal(fromEnv.message, 'MEMVAULT_LISTEN is invalid:\n  - listen: must be HOST:PORT, e.g. 127.0.0.1:7411 (MEMVAULT_LISTEN is "7450")');
  t.same(fromEnv.problems, [
    { path: 'listen', rule: 'must be HOST:PORT, e.g. 127.0.0.1:7411 (MEMVAULT_LISTEN is "7450")', from: 'MEMVAULT_LISTEN' },
  ]);
  const fromFlag = problemsOf(t, () => loadConfig({ file, env: { MEMVAULT_LISTEN: '127.0.0.1:9100' }, listen: 'localhost' }));
  t.equal(fromFlag.message, '--listen is invalid:\n  - listen: must be HOST:PORT, e.g. 127.0.0.1:7411 (--listen is "localhost")');
  // a bad value in the file beside a bad override: the file is named, and each line says where its value came from
  const both = configFile(t, 'vault: /v\nsearch: { default_k: ten }\n');
  const mixed = problemsOf(t, () => loadConfig({ file: both, env: { MEMVAULT_LISTEN: 'x' } }));
  t.equal(
    mixed.message,
    `${both} is invalid:\n  - listen: must be HOST:PORT, e.g. 127.0.0.1:7411 (MEMVAULT_LISTEN is "x")\n` +
      '  - search.default_k: Expected number, received string',
  );
  // with no file at all, a flag's bad value is still the flag's
  t.match(problemsOf(t, () => loadConfig({ vault: '/v', env: {}, listen: 'nowhere' })).message, /^--listen is invalid:\n {2}- listen: /);
});

t.test('a port past 65535 is refused by the config, whoever gives it; 0 and 65535 are taken', async (t) => {
  const file = configFile(t, 'vault: /v\nlisten: 127.0.0.1:70000\n');
  t.same(problemsOf(t, () => loadConfig({ file, env: {} })).problems, [{ path: 'listen', rule: 'the port must be at most 65535' }]);
  t.same(problemsOf(t, () => loadConfig({ vault: '/v', env: {}, listen: '[::1]:99999' })).problems, [
    { path: 'listen', rule: 'the port must be at most 65535 (--listen is "[::1]:99999")', from: '--listen' },
  ]);
  t.same(
    problemsOf(t, () => loadConfig({ vault: '/v', env: {}, listen: '127.0.0.1:123456' })).problems.length,
    1,
    'six digits: one problem',
  );
  t.equal(loadConfig({ vault: '/v', env: {}, listen: '127.0.0.1:65535' }).listen, '127.0.0.1:65535');
  t.equal(loadConfig({ vault: '/v', env: {}, listen: '127.0.0.1:0' }).listen, '127.0.0.1:0');
});

t.test('memvault start with a port past 65535 refuses as a config error (exit 78) and starts nothing', async (t) => {
  const file = configFile(t, (dir) => `vault: ${dir}\nlisten: 127.0.0.1:70000\n`);
  const r = await cli(['start', '--config', file], {}, { timeoutMs: 60_000 });
  t.equal(r.code, 78, 'exit 78, invalid configuration');
  t.equal(r.stdout, '');
  t.equal(r.stderr, `memvault: ${file} is invalid:\n  - listen: the port must be at most 65535\n`);
  t.notOk(existsSync(path.join(path.dirname(file), '.memvault')), 'no data dir made');
});

t.test('a YAML syntax error says its line and column once, with no dangling colon', async (t) => {
  const file = configFile(t, 'vault: /v\nsearch:\n  default_k: 10\n   max_k: 5\n');
  const err = problemsOf(t, () => loadConfig({ file, env: {} }));
  t.ok(err.problems.length > 0);
  for (const p of err.problems) {
    t.equal(p.path, 'line 3, column 14', 'the position is the path');
    t.match(p.rule, /^YAML syntax: [A-Z][^\n]*[a-z]$/, `one plain sentence: ${p.rule}`);
    t.notMatch(p.rule, /at line|column|:$/, 'the position is not said again');
  }
});
