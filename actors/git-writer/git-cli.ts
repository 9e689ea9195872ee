// Runs the git CLI (no shell, no user or system config, no prompts) and turns every failure into data.
import { existsSync } from 'node:fs';
import os from 'node:os';
import type { Failure } from '../../messages/common.js';
import { spawnVia } from './spawner.js';

/** Oldest git we accept: `init -b`, `rev-parse --show-object-format`, `revert --cleanup` and `%(trailers:…)` are all older. */
export const MIN_GIT_VERSION = [2, 30, 0] as const;

export type GitEnv = Record<string, string | undefined>;

export interface GitRunOptions {
  /** Written to git's stdin, then closed. Without it stdin is closed at once, so git never waits on it. */
  input?: string;
  /** Added to the clean environment; `undefined` removes a variable. */
  env?: GitEnv;
}

export interface GitOutput {
  ok: true;
  stdout: string;
  stderr: string;
  code: 0;
}

/** git exited non-zero (`git_failed`, with its output so callers can tell conflicts from bugs) or could not start. */
export interface GitFailure extends Failure<'git_failed' | 'git_missing'> {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Inherited from the daemon's environment; everything else (GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE from a hook that
// started us, the user's EDITOR, …) is dropped so that git sees only the repository we name.
const INHERITED = ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'SYSTEMROOT', 'SystemRoot', 'LD_LIBRARY_PATH'];

/** The environment every git process gets: deterministic output, no global/system config, nothing interactive. */
export function cleanGitEnv(extra: GitEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of INHERITED) if (process.env[k] !== undefined) env[k] = process.env[k];
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_EDITOR: ':', // git's own "no editor" value: a stray --edit never waits on a terminal
    GIT_PAGER: 'cat',
  });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

const EXCERPT = 600;

function describe(args: readonly string[], code: number | null, stderr: string, stdout: string): string {
  let cmd = `git ${args.join(' ')}`;
  if (cmd.length > 200) cmd = `${cmd.slice(0, 200)}…`;
  const text = (stderr.trim() || stdout.trim()).replace(/\s*\n\s*/g, ' | ');
  const excerpt = text.length > EXCERPT ? `…${text.slice(-EXCERPT)}` : text;
  return `${cmd} failed (exit ${code ?? 'signal'}): ${excerpt || 'no output'}`;
}

/**
 * Runs `git <args>` in `repoDir`. Resolves `ok: true` only on exit 0; never rejects. Git is started by the spawner
 * process (./spawner.ts), never forked from the daemon itself.
 */
export async function git(repoDir: string, args: readonly string[], opts: GitRunOptions = {}): Promise<GitOutput | GitFailure> {
  const env = cleanGitEnv(opts.env);
  const r = await spawnVia({ file: 'git', args, cwd: repoDir, env, ...(opts.input !== undefined ? { input: opts.input } : {}) });
  if (r.kind === 'exit') {
    if (r.code === 0) return { ok: true, stdout: r.stdout, stderr: r.stderr, code: 0 };
    return {
      ok: false,
      reason: 'git_failed',
      message: describe(args, r.code, r.stderr, r.stdout),
      code: r.code,
      stdout: r.stdout,
      stderr: r.stderr,
    };
  }
  // spawn reports a missing cwd as ENOENT too; only a missing binary is `git_missing`.
  const missingDir = r.code === 'ENOENT' && !existsSync(repoDir);
  if (r.code === 'ENOENT' && !missingDir)
    return {
      ok: false,
      reason: 'git_missing',
      message: `git was not found on PATH (${env['PATH'] ?? 'unset'}); install git ${MIN_GIT_VERSION.join('.')} or later`,
      code: null,
      stdout: '',
      stderr: '',
    };
  return {
    ok: false,
    reason: 'git_failed',
    message: missingDir ? `directory ${repoDir} does not exist` : `git could not start: ${r.message}`,
    code: null,
    stdout: '',
    stderr: '',
  };
}

export type GitVersion = [major: number, minor: number, patch: number];

/** The installed git's version, or why it cannot be used. `env` may override PATH (tests point it at an empty dir). */
export async function gitVersion(env: GitEnv = {}): Promise<{ ok: true; version: GitVersion } | Failure<'git_missing' | 'git_too_old'>> {
  const r = await git(os.tmpdir(), ['--version'], { env });
  if (!r.ok)
    return { ok: false, reason: 'git_missing', message: r.reason === 'git_missing' ? r.message : `git --version failed: ${r.message}` };
  // "git version 2.39.5", "git version 2.39.3 (Apple Git-145)", "git version 2.45.1.windows.1"
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(r.stdout);
  if (!m) return { ok: false, reason: 'git_missing', message: `could not read a version from \`git --version\`: ${r.stdout.trim()}` };
  const version: GitVersion = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (compareVersions(version, MIN_GIT_VERSION) < 0) {
    return {
      ok: false,
      reason: 'git_too_old',
      message: `git ${version.join('.')} is too old; memvault needs git ${MIN_GIT_VERSION.join('.')} or later`,
    };
  }
  return { ok: true, version };
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
