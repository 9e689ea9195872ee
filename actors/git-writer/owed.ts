// Agent writes that reached the disk but not git, paid later: see OwedCommits.
import type { GitRepo } from './git-repo.js';
import type { Logger } from 'pino';
import { intentCommit, type IntentJournal, type recoverIntents } from './intent-journal.js';

/**
 * Agent writes that reached the disk but not git (e.g. a stale .git/index.lock), kept in the journal (so a restart
 * keeps them too): committed as the agent's before the next write, or by a retry timer (1 s doubling to 60 s) if
 * none comes, so none stays uncommitted.
 */
export class OwedCommits {
  #timer: NodeJS.Timeout | null = null;
  #retryMs = 0;
  /** One payment run at a time: two would commit the oldest owed write twice and drop the next. */
  #paying: Promise<void> | null = null;

  constructor(
    private readonly d: {
      journal: IntentJournal;
      /** The git writer's serial section: a retry runs inside it. */
      serial: <T>(fn: () => Promise<T>) => Promise<T>;
      committed: (sha: string, paths: string[]) => void;
    },
  ) {}

  pay(repo: GitRepo): Promise<void> {
    this.#paying ??= this.#payNow(repo).finally(() => {
      this.#paying = null;
    });
    return this.#paying;
  }

  async #payNow(repo: GitRepo): Promise<void> {
    for (let o = this.d.journal.owed[0]; o; o = this.d.journal.owed[0]) {
      const c = await repo.commit(o.paths, intentCommit(o));
      if (!c.ok && c.reason !== 'nothing_to_commit') return this.arm(repo);
      await this.d.journal.paid();
      if (c.ok) this.d.committed(c.sha, o.paths);
    }
    this.#retryMs = 0;
  }

  arm(repo: GitRepo): void {
    if (this.#timer) return;
    this.#retryMs = Math.min(60_000, this.#retryMs * 2 || 1_000);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.d.serial(() => this.pay(repo));
    }, this.#retryMs);
  }
}

/** What start-up's recovery did with the last run's unfinished agent writes: committed as the agent's, or left. */
export function reportRecovered(
  rs: Awaited<ReturnType<typeof recoverIntents>>,
  committed: (sha: string, paths: string[]) => void,
  log: Pick<Logger, 'warn' | 'info'>,
): void {
  for (const r of rs) {
    if ('sha' in r) {
      committed(r.sha, r.paths);
      log.warn(
        { event: 'vault_intent_recovered', agent: r.agent, paths: r.paths, commit: r.sha },
        'committed an agent change the last run wrote but did not commit',
      );
    } else
      log.info(
        { event: 'vault_intent_recovered', agent: r.agent, skipped: r.skipped },
        'an unfinished agent change was not recorded as the agent’s',
      );
  }
}
