// `node dist/bin/cli.js COMMAND …` runs the command, as bin/memvault does (which imports it and calls main once): it
// used to load the module, do nothing and exit 0, so a `start` written that way silently started no daemon.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { REPO } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';

const run = promisify(execFile);

async function node(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, args, { cwd: REPO });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

t.test('the compiled and the bundled entry answer a command; bin/memvault answers it once', async (t) => {
  for (const entry of ['dist/bin/cli.js', 'dist/bundle/bin/cli.js']) {
    const r = await node([path.join(REPO, entry), 'frobnicate']);
    t.equal(r.code, 2, `${entry}: a usage error`);
    t.match(r.stderr, /^memvault: unknown command "frobnicate"\n/, `${entry}: says so`);
  }
  const viaBin = await memvault(['frobnicate']);
  t.equal(viaBin.code, 2);
  t.equal(viaBin.stderr.split('unknown command').length, 2, 'bin/memvault runs it once, not twice');
});
