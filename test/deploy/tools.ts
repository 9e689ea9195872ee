// Debian tools the deploy tests drive (`make test` installs them: Makefile TEST_DEBS), run as child processes.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO } from '../helpers/daemon.js';

export const DEPLOY = path.join(REPO, 'deploy');

/** Why `cmd` cannot run here (printed as the skip reason), or false when it is on the PATH. */
export function missing(cmd: string, pkg: string): string | false {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? false : `${cmd} is not installed (Debian package ${pkg}; \`make test-deps\` installs it)`;
}

export interface Ran {
  status: number | null;
  out: string;
}

export function run(cmd: string, args: string[], opts: { cwd?: string; input?: string } = {}): Ran {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: opts.cwd, input: opts.input, timeout: 120_000 });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}
