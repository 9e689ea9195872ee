// Runs `bin/memvault` as a user would, in its own process, and hands back the exit code and both outputs.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './daemon.js';

const run = promisify(execFile);
export const BIN = path.join(REPO, 'bin/memvault');

export async function memvault(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(BIN, args, { env: { ...process.env, ...env }, maxBuffer: 10_000_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
