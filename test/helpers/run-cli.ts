// Runs `bin/memvault` as a user would, in its own process, and hands back the exit code, both outputs and its pid.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './daemon.js';

const run = promisify(execFile);
export const BIN = path.join(REPO, 'bin/memvault');

/** `timeoutMs`: the command is ended (SIGTERM) past it — a `start` expected to refuse that serves instead fails the test, not hangs it. */
export async function memvault(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  opts: { timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string; pid: number | undefined }> {
  const running = run(BIN, args, { env: { ...process.env, ...env }, maxBuffer: 10_000_000, timeout: opts.timeoutMs ?? 0 });
  const pid = running.child.pid;
  try {
    const r = await running;
    return { code: 0, stdout: r.stdout, stderr: r.stderr, pid };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, pid };
  }
}

/**
 * `memvault start --vault DIR --listen 127.0.0.1:0` in its own process, once its banner says where it serves: its url,
 * the exit to await, and the child (killed with SIGKILL at teardown if still running).
 */
export async function startCli(
  t: { teardown(fn: () => void): void },
  vault: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown[]> }> {
  const child = spawn(BIN, ['start', '--vault', vault, '--listen', '127.0.0.1:0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = once(child, 'exit');
  t.teardown(() => child.kill('SIGKILL'));
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  while (!/metrics:/.test(err)) await once(child.stderr!, 'data');
  const url = /(http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(err)?.[1];
  if (!url) throw new Error(`no url in the banner: ${err}`);
  return { child, url, exited };
}
