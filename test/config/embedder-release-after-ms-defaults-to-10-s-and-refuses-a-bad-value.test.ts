// embedder.release_after_ms: how long the bulk embedding threads idle before they end (0 keeps them); a value that
// is not a whole number of milliseconds in range is refused at startup, naming the field.
import t from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';

function load(t: { teardown(fn: () => void): void }, yaml: string) {
  const file = configFile(t, yaml);
  return () => loadConfig({ file, vault: '/tmp/v', env: {} });
}

t.test('defaults to 10 s; 0 and an hour are accepted', async (t) => {
  t.equal(loadConfig({ vault: '/tmp/v', env: {} }).embedder.release_after_ms, 10_000);
  t.equal(load(t, 'embedder:\n  release_after_ms: 0\n')().embedder.release_after_ms, 0);
  t.equal(load(t, 'embedder:\n  release_after_ms: 3600000\n')().embedder.release_after_ms, 3_600_000);
});

for (const bad of ['-1', '1.5', '3600001', '"10s"']) {
  t.test(`release_after_ms: ${bad} is refused with config_invalid naming the field`, async (t) => {
    const err = t.throws(load(t, `embedder:\n  release_after_ms: ${bad}\n`)) as unknown as ConfigError;
    t.ok(err instanceof ConfigError);
    t.equal(err.code, 'config_invalid');
    t.ok(
      err.problems.some((p) => p.path === 'embedder.release_after_ms'),
      JSON.stringify(err.problems),
    );
  });
}
