// `memvault status` with no daemon running and no --config said `llm: idle — llm_not_configured: no llm section in the
// config` of an operator whose config has one: the command read the built-in defaults, which have no llm section, and
// reported them as the daemon's. With no daemon and no config it knows nothing of the llm: unknown, the daemon is not
// running (as with a --config that has an llm section); a --config without one is still said to be not configured.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault } from '../helpers/daemon.js';
import { memvault as cli } from '../helpers/run-cli.js';

t.test('status without a daemon claims nothing of the llm unless given the config', async (t) => {
  const v = makeVault({ 'Inbox/otters.md': '# Otters\n\nOtters hold hands while they sleep.\n' });
  t.teardown(() => v.cleanup());
  const withLlm = path.join(path.dirname(v.dir), 'with-llm.yaml');
  writeFileSync(withLlm, 'llm:\n  base_url: http://127.0.0.1:9/v1\n  models: { default: llama3.1:8b }\n');
  const without = path.join(path.dirname(v.dir), 'without-llm.yaml');
  writeFileSync(without, 'log:\n  level: silent\n');

  const llmLine = async (args: string[]): Promise<string> => {
    const r = await cli(['status', '--vault', v.dir, ...args]);
    t.equal(r.code, 0, r.stderr);
    return /^llm:\s+(.*)$/m.exec(r.stdout)?.[1] ?? `no llm line in: ${r.stdout}`;
  };
  t.equal(await llmLine([]), 'unknown — the daemon is not running', 'no config given: unknown, not "not configured"');
  t.equal(await llmLine(['--config', withLlm]), 'unknown — the daemon is not running', 'a config with an llm section: the same');
  t.match(await llmLine(['--config', without]), /^idle — llm_not_configured: no `llm` section/, 'a config without one: not configured');

  const json = JSON.parse((await cli(['status', '--vault', v.dir, '--json'])).stdout);
  t.same(json.llm, { state: 'unknown', reason: 'the daemon is not running' }, '--json says the same');
});
