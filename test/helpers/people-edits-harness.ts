// PeopleEdits with a ManualClock, a real serial chain like the git writer's, and a `commit` that records what it is
// asked (and when, by the clock) and answers as the test says: git, under the test's control.
import { PeopleEdits } from '../../actors/git-writer/people-edits.js';
import { ManualClock } from './manual-clock.js';

export interface Commit {
  at: number;
  paths: string[];
}

export interface PeopleEditsHarness {
  clock: ManualClock;
  edits: PeopleEdits;
  /** Every commit asked for, in order, with the clock's time. */
  commits: Commit[];
  /** What ran on the serial chain, in order: 'people' for PeopleEdits' turns, or a name given to `queue`. */
  chain: string[];
  /** Queues another git operation (an agent's write) on the same serial chain. */
  queue(name: string): Promise<void>;
  /** Resolves once `count` commits have been asked for (at once if they already were). */
  until(count: number): Promise<Commit[]>;
  /**
   * Resolves when everything queued on the serial chain so far has run. A ManualClock can fire a timer inside the
   * chain turn that armed it (no real time passes), so a test lets that turn finish before it advances the clock.
   */
  idle(): Promise<void>;
}

/** `answer(n)` says whether the n-th commit (from 0) goes through; default every commit does. */
export function peopleEdits(opts: {
  quietMs: number;
  answer?: (n: number, paths: string[]) => boolean;
  onCommit?: (c: Commit) => void;
}): PeopleEditsHarness {
  const clock = new ManualClock();
  const commits: Commit[] = [];
  const chain: string[] = [];
  const waiters: Array<() => void> = [];
  let tail: Promise<void> = Promise.resolve();
  // the actor's one serial chain: each operation starts after the one queued before it settles
  const serialAs = (name: string, fn: () => Promise<void>): Promise<void> => {
    const run = tail.then(() => {
      chain.push(name);
      return fn();
    });
    tail = run.catch(() => {});
    return run;
  };
  const edits = new PeopleEdits({
    quietMs: opts.quietMs,
    clock,
    serial: (fn) => serialAs('people', fn),
    commit: async (paths) => {
      const c = { at: clock.now(), paths: [...paths] };
      commits.push(c);
      opts.onCommit?.(c);
      for (const w of waiters.splice(0)) w();
      return opts.answer?.(commits.length - 1, c.paths) ?? true;
    },
  });
  return {
    clock,
    edits,
    commits,
    chain,
    queue: (name) => serialAs(name, async () => {}),
    idle: () => tail,
    until: (count) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (commits.length >= count) resolve(commits);
          else waiters.push(check);
        };
        check();
      }),
  };
}
