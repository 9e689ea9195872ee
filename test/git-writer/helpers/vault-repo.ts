// Test helpers for the git writer: a temp vault outside any repository, plain `git` for checking history the way a
// person would, and the identities the tests commit as.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GitRepo, type GitRepoOptions } from '../../../actors/git-writer/git-repo.js';

interface Teardown {
  teardown(fn: () => void): void;
  fail(message: string): void;
}

export const MEMVAULT = { name: 'memvault', email: 'memvault@localhost' };
export const PERSON = { name: 'Ada Person', email: 'ada@example.org' };

/** The env plain git runs with in tests: no user or system config, so the user's setup cannot change results. */
export const TEST_GIT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env['PATH'],
  HOME: process.env['HOME'],
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  LC_ALL: 'C',
  GIT_AUTHOR_NAME: 'Someone Else',
  GIT_AUTHOR_EMAIL: 'else@example.org',
  GIT_COMMITTER_NAME: 'Someone Else',
  GIT_COMMITTER_EMAIL: 'else@example.org',
};

/** A fresh folder in the OS temp dir (never inside this project's own repository), removed after the test. */
export function tempDir(t: Teardown, prefix = 'memvault-git-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs plain git in `dir` and returns stdout; throws (failing the test) on a non-zero exit. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: TEST_GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function write(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

export function read(dir: string, rel: string): string | null {
  return existsSync(join(dir, rel)) ? readFileSync(join(dir, rel), 'utf8') : null;
}

/** Opens (creating if need be) a GitRepo on `dir`; fails the test if it cannot. */
export async function openRepo(t: Teardown, dir: string, extra: Partial<GitRepoOptions> = {}): Promise<GitRepo> {
  const r = await GitRepo.open(dir, { author: MEMVAULT, person: PERSON, ...extra });
  if (!(r instanceof GitRepo)) {
    t.fail(`open failed: ${r.reason}: ${r.message}`);
    throw new Error(r.message);
  }
  return r;
}

/** A new vault with `files`, opened (so imported), ready for agent commits. */
export async function vaultWith(t: Teardown, files: Record<string, string> = {}): Promise<{ dir: string; repo: GitRepo }> {
  const dir = tempDir(t);
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text);
  return { dir, repo: await openRepo(t, dir) };
}

/** `git log` subjects, newest first. */
export function subjects(dir: string): string[] {
  return git(dir, 'log', '--format=%s').trimEnd().split('\n');
}

export function commitCount(dir: string): number {
  return Number(git(dir, 'rev-list', '--count', 'HEAD').trim());
}

/** `git status --porcelain` as a person reads it, one line per entry. */
export function status(dir: string): string[] {
  return git(dir, 'status', '--porcelain', '--untracked-files=all')
    .split('\n')
    .filter((l) => l !== '');
}
