// A `git` first on PATH for a daemon the test starts after it: it notes each command's words in a log, then runs the
// real git (`revert` optionally held back after git ends, to let the OS watcher's echo arrive before memvault's answer).
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './vault-repo.js';

export interface GitOnPath {
  /** The git subcommands started since the last `clear` (the first word that is not an option or its value). */
  commands(): string[];
  clear(): void;
}

export function gitOnPath(
  t: { teardown(fn: () => void): void; fail(message: string): void },
  opts: { revertHeldMs?: number } = {},
): GitOnPath {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = tempDir(t, 'memvault-git-on-path-');
  const log = join(bin, 'commands.log');
  writeFileSync(log, '');
  const held = opts.revertHeldMs
    ? `case " $* " in *" revert "*) "${real}" "$@"; rc=$?; sleep ${opts.revertHeldMs / 1000}; exit $rc;; esac\n`
    : '';
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${log}"\n${held}exec "${real}" "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  const before = process.env['PATH'];
  process.env['PATH'] = `${bin}:${before ?? ''}`; // read by the daemon's threads and spawner as they start
  t.teardown(() => {
    process.env['PATH'] = before;
  });
  return {
    commands: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const words = l.split(' ');
          for (let i = 0; i < words.length; i++) {
            if (words[i] === '-c' || words[i] === '-C') i++;
            else if (!words[i]!.startsWith('-')) return words[i]!;
          }
          return '?';
        }),
    clear: () => writeFileSync(log, ''),
  };
}
