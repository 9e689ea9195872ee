// Shared by the kill -9 tests of the newer write paths: a real daemon process on a temp vault, a `git` first on its
// PATH that can hold one git subcommand at a chosen point (so the kill lands there, deterministically), and the
// checks after the restart (git status clean, no operation left half-done in .git, doctor ok).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeVault, testConfig, type TestVault } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';
import { tempDir } from '../git-writer/helpers/vault-repo.js';
import { ProcessDaemon, until } from './lib/daemon-process.js';

type T = { teardown(fn: () => void | Promise<void>): void; fail(message: string): void };

export interface HeldGit {
  bin: string;
  /** From now on, a `git` whose words include `sub` stops at its hold point (see heldGit). */
  hold(sub: 'revert' | 'hash-object' | 'commit' | '--abort'): void;
  /** Resolves once a held git is waiting; the pids of the held processes (the git and its helper). */
  held(): Promise<number[]>;
  release(): void;
}

/**
 * A `git` wrapper: for the word named in `<bin>/hold`, `revert` runs the real git with an editor that stops (the work
 * tree and index already reverted, no commit yet); any other word (`commit`, `--abort`) stops before the real git runs.
 * Stopped means: `<bin>/held` written with the pids, then sleeping until killed.
 */
export function heldGit(t: T): HeldGit {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = tempDir(t, 'memvault-held-git-');
  const holdFile = path.join(bin, 'hold');
  const heldFile = path.join(bin, 'held');
  const editor = path.join(bin, 'editor');
  writeFileSync(editor, `#!/bin/sh\necho "$$ $PPID" > "${heldFile}"\nwhile :; do sleep 1; done\n`);
  chmodSync(editor, 0o755);
  writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh
hold=$(cat "${holdFile}" 2>/dev/null)
if [ -n "$hold" ]; then
  case " $* " in
    *" $hold "*)
      if [ "$hold" = revert ]; then GIT_EDITOR="${editor}" exec "${real}" "$@"; fi
      echo "$$" > "${heldFile}"; while :; do sleep 1; done ;;
  esac
fi
exec "${real}" "$@"
`,
  );
  chmodSync(path.join(bin, 'git'), 0o755);
  return {
    bin,
    hold: (sub) => writeFileSync(holdFile, sub),
    held: () =>
      until('a git to be held', 30_000, async () => {
        if (!existsSync(heldFile)) return undefined;
        const pids = readFileSync(heldFile, 'utf8').trim().split(/\s+/).map(Number).filter(Boolean);
        return pids.length ? pids : undefined;
      }),
    release: () => writeFileSync(holdFile, ''),
  };
}

export interface Rig {
  v: TestVault;
  d: ProcessDaemon;
  git: HeldGit | null;
  dataDir: string;
  configFile: string;
}

export async function rig(t: T, files: Record<string, string>, opts: { heldGit?: boolean; yaml?: string } = {}): Promise<Rig> {
  const v = makeVault(files);
  const cfg = testConfig(v.dir, opts.yaml ?? '', { logLevel: 'info' });
  const g = opts.heldGit ? heldGit(t) : null;
  const env: Record<string, string> = g ? { PATH: `${g.bin}:${process.env['PATH'] ?? ''}` } : {};
  const d = new ProcessDaemon({
    vault: v.dir,
    configFile: cfg.config_file!,
    dataDir: cfg.data_dir,
    logFile: path.join(path.dirname(v.dir), 'daemon.log'),
    env,
  });
  t.teardown(async () => {
    await d.kill9();
    v.cleanup();
  });
  return { v, d, git: g, dataDir: cfg.data_dir, configFile: cfg.config_file! };
}

/** SIGKILL the daemon and the held git processes — a power cut for all of them. */
export async function powerCut(r: Rig, pids: number[] = []): Promise<void> {
  await r.d.kill9();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  r.git?.release();
}

export function gitOut(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
}

/** What must hold after any restart: a clean work tree, no git operation left in progress, `memvault doctor` ok. */
export async function afterRestart(r: Rig): Promise<string[]> {
  const problems: string[] = [];
  const status = gitOut(r.v.dir, 'status', '--porcelain');
  if (status !== '') problems.push(`git status not clean:\n${status}`);
  for (const f of ['REVERT_HEAD', 'CHERRY_PICK_HEAD', 'MERGE_HEAD', 'sequencer', 'index.lock'])
    if (existsSync(path.join(r.v.dir, '.git', f))) problems.push(`.git/${f} left behind`);
  const doc = await memvault(['doctor', '--vault', r.v.dir, '--config', r.configFile]);
  if (doc.code !== 0) problems.push(`memvault doctor exited ${doc.code}: ${doc.stdout}${doc.stderr}`);
  return problems;
}
