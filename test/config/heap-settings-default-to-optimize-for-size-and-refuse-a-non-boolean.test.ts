// The `heap:` settings: V8's optimize-for-size on, the MCP half loaded on first use and no per-thread copy of V8's
// builtins by default, and refusals naming the path and the rule.
import t from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';

function load(t: { teardown(fn: () => void): void }, text: string) {
  const file = configFile(t, `vault: /v\n${text}`);
  try {
    return { config: loadConfig({ file, env: {} }), problems: [] as unknown[], code: null };
  } catch (e) {
    if (e instanceof ConfigError) return { config: null, problems: e.problems, code: e.code };
    throw e;
  }
}

t.test('defaults: optimize for size, the MCP half on first use, no per-thread copy of the builtins', async (t) => {
  t.same(loadConfig({ vault: '/tmp/v', env: {} }).heap, {
    optimize_for_size: true,
    preload_mcp: false,
    short_builtin_calls: false,
    bytecode_old_age: 1,
  });
});

t.test('both can be turned the other way', async (t) => {
  t.same(
    load(t, 'heap:\n  optimize_for_size: false\n  preload_mcp: true\n  short_builtin_calls: true\n  bytecode_old_age: 5\n').config?.heap,
    {
      optimize_for_size: false,
      preload_mcp: true,
      short_builtin_calls: true,
      bytecode_old_age: 5,
    },
  );
});

t.test('a value that is not a boolean, or an unknown key, is refused naming the path', async (t) => {
  t.match(load(t, 'heap:\n  optimize_for_size: "yes"\n'), {
    config: null,
    code: 'config_invalid',
    problems: [{ path: 'heap.optimize_for_size', rule: /boolean/ }],
  });
  t.match(load(t, 'heap:\n  preload_mcp: 1\n'), { config: null, problems: [{ path: 'heap.preload_mcp' }] });
  for (const bad of ['0', '2.5', '"1"', '101'])
    t.match(
      load(t, `heap:\n  bytecode_old_age: ${bad}\n`),
      { config: null, code: 'config_invalid', problems: [{ path: 'heap.bytecode_old_age' }] },
      `bytecode_old_age ${bad} is refused`,
    );
  t.match(load(t, 'heap:\n  short_builtin_calls: "off"\n'), {
    config: null,
    code: 'config_invalid',
    problems: [{ path: 'heap.short_builtin_calls', rule: /boolean/ }],
  });
  t.match(load(t, 'heap:\n  young_mb: 4\n'), { config: null, problems: [{ path: 'heap' }] }, 'unknown keys are refused');
});
