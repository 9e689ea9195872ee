// The YAML config is validated at startup: every problem names its path and the rule broken; env overrides apply.
import path from 'node:path';
import t from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';

t.test('defaults apply when no file is given', async (t) => {
  const c = loadConfig({ vault: '/tmp/some-vault', env: {} });
  t.equal(c.listen, '127.0.0.1:7411');
  t.equal(c.data_dir, '/tmp/some-vault/.memvault');
  t.equal(c.embedder.provider, 'use-lite');
  t.same(c.watcher.ignore, ['.obsidian/**', '.git/**', '.memvault/**', '.trash/**', 'Templates/**']);
  t.equal(c.watcher.debounce_ms, 200);
  t.equal(c.watcher.rename_window_ms, 2000);
});

t.test('every problem is reported with its path and rule', async (t) => {
  const file = configFile(
    t,
    'vault: /v\nlisten: nowhere\nembedder:\n  batch_size: 0\n  provider: onnx\nsearch:\n  default_k: 90\n  max_k: 10\nwatcher:\n  debounce: 5\n',
  );
  const err = t.throws(() => loadConfig({ file, env: {} })) as unknown as ConfigError;
  t.ok(err instanceof ConfigError);
  const paths = err.problems.map((p) => p.path);
  for (const p of ['listen', 'embedder.batch_size', 'embedder.onnx', 'search.default_k', 'watcher'])
    t.ok(paths.includes(p), `reports ${p}: ${JSON.stringify(err.problems)}`);
  t.match(err.message, /listen: must be HOST:PORT/);
  t.match(err.message, /debounce/, 'an unknown key is named');
});

t.test('YAML syntax errors name the line', async (t) => {
  const file = configFile(t, 'vault: /v\nwatcher:\n  ignore: [unclosed\n');
  const err = t.throws(() => loadConfig({ file, env: {} })) as unknown as ConfigError;
  t.match(err.problems[0], { path: /line \d+/, rule: /YAML syntax/ });
});

t.test('environment overrides the listen address and data dir; flags override both', async (t) => {
  const file = configFile(t, 'vault: ./v\nlisten: 127.0.0.1:9000\n');
  const c = loadConfig({ file, env: { MEMVAULT_LISTEN: '127.0.0.1:9100', MEMVAULT_DATA_DIR: '/tmp/mv-data' }, cwd: '/' });
  t.equal(c.listen, '127.0.0.1:9100');
  t.equal(c.data_dir, '/tmp/mv-data');
  t.equal(c.vault, path.join(path.dirname(file), 'v'), 'a relative vault is relative to the config file');
  t.equal(loadConfig({ file, env: { MEMVAULT_LISTEN: '127.0.0.1:9100' }, listen: '127.0.0.1:9200' }).listen, '127.0.0.1:9200');
});
