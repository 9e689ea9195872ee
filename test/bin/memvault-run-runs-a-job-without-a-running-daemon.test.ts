// `memvault run JOB --date D` with no daemon serving the vault starts one in its own process, lets it catch up, runs
// the job through the same HTTP route and prints the outcome (the HTTP route itself is tested with the skills).
import t from 'tap';
import { makeVault, testConfig } from '../helpers/daemon.js';
import { FakeLlm } from '../helpers/fake-llm.js';
import { memvault } from '../helpers/run-cli.js';
import { skillAnswer, skillYaml } from '../scheduler/helpers/skill-daemon.js';

t.test('memvault run starts a daemon for the run and prints what the job did', async (t) => {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  llm.respond(skillAnswer);
  const v = makeVault({}, { copyExample: true });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, skillYaml(llm.url), { logLevel: 'warn' });
  const args = ['--vault', v.dir, '--config', cfg.config_file!];
  const first = await memvault(['run', 'daily_reflection', '--date', '2026-11-19', ...args]);
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, /^daily_reflection: written Reflections\/2026-11-19\.md \(commit [0-9a-f]{12}\)\n$/);
  t.equal(llm.chats().length, 1);
  const bad = await memvault(['run', 'daily_reflection', '--date', 'yesterday', ...args]);
  t.equal(bad.code, 2, 'a bad --date is a usage error');
  const jobs = await memvault(['jobs', ...args]);
  t.equal(jobs.code, 1);
  t.match(jobs.stderr, /no daemon serves/);
});
