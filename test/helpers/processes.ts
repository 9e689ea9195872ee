// The processes under a process, read from /proc: tests check that nothing the daemon started is left defunct.
import { readdirSync, readFileSync } from 'node:fs';
import { processState } from '../../supervisors/runtime/pid-alive.js';

export interface Descendant {
  pid: number;
  /** The command name, as in ps's comm (e.g. `node`, `git`). */
  comm: string;
  /** The state letter: `Z` is a defunct process its parent has not reaped. */
  state: string;
}

/** Every process under `pid` (children, theirs, …) with its command name and state letter. */
export function descendants(pid: number): Descendant[] {
  const out: Descendant[] = [];
  const walk = (p: number): void => {
    let kids: number[] = [];
    try {
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const text = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        if (text !== '') kids = kids.concat(text.split(/\s+/).map(Number));
      }
    } catch {
      return; // gone meanwhile
    }
    for (const k of kids) {
      try {
        // "pid (comm) S ...": comm may hold spaces and parentheses, so split at the last ')'
        const stat = readFileSync(`/proc/${k}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        out.push({ pid: k, comm: stat.slice(stat.indexOf('(') + 1, close), state: stat.slice(close + 2, close + 3) });
      } catch {
        continue;
      }
      walk(k);
    }
  };
  walk(pid);
  return out;
}

/** Every live process whose environment holds `name=value`: what a command forked inherits it, so none is missed. */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = `${name}=${value}`;
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (processState(Number(entry)) === 'Z') continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(needle)) out.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}
