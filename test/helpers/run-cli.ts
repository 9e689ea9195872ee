// Runs `bin/memvault` as a user would, in its own process, and hands back the exit code, both outputs and its pid.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './daemon.js';

const run = promisify(execFile);
export const BIN = path.join(REPO, 'bin/memvault');

export async function memvault(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string; pid: number | undefined }> {
  const running = run(BIN, args, { env: { ...process.env, ...env }, maxBuffer: 10_000_000 });
  const pid = running.child.pid;
  try {
    const r = await running;
    return { code: 0, stdout: r.stdout, stderr: r.stderr, pid };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, pid };
  }
}
