// sleep: the nightly extraction (sleep/run.ts) as a scheduler job — memories into the fact log and facts into notes
// from the conversations, tasks and fact-log lines since its last run. Its cursor lives in its own state file.
import { toolLimits } from '../../gateway/tools/deps.js';
import { indexedAsWanted, type WaitIndexed } from '../../gateway/tools/types.js';
import type { IndexView } from '../../gateway/index-view.js';
import { SOURCE_VAULT } from '../../../messages/common.js';
import { memoryPaths } from '../../memory/paths.js';
import { runSleep } from '../sleep/run.js';
import { sleepStateFile } from '../sleep/state.js';
import { autonomyOf, type Skill } from './skill.js';

/** How often a fact's note is looked for in the index while memory_add_fact waits (the scheduler hears no notices). */
const POLL_MS = 50;

/** Read-your-writes for the scheduler: the index view asked until it holds `hash` at `path` (null: nothing there). */
export function pollIndexed(view: IndexView): WaitIndexed {
  return (p, hash, timeoutMs) =>
    new Promise((resolve) => {
      const until = Date.now() + timeoutMs;
      const look = () => {
        const now = view.reader.document(SOURCE_VAULT, p)?.contentHash ?? null;
        if (indexedAsWanted(hash, now)) resolve(true);
        else if (Date.now() >= until) resolve(false);
        else setTimeout(look, POLL_MS);
      };
      look();
    });
}

export const sleep: Skill = {
  name: 'sleep',
  llm: true,
  async run(env) {
    const limits = toolLimits(env.cfg);
    return runSleep({
      dataDir: env.cfg.data_dir,
      vault: env.cfg.vault,
      memory: memoryPaths(env.cfg.memory.folder),
      tz: env.tz,
      now: env.now,
      today: env.ask.today,
      budget: env.cfg.skills.sleep.budget_chars,
      writeFacts: autonomyOf(env.cfg, 'sleep') !== 'low',
      llm: env.ask.llm,
      templates: env.ask.templates,
      facts: {
        vault: limits.vault,
        knowledge: limits.knowledge,
        waitTimeoutMs: limits.waitTimeoutMs,
        view: env.ctx.view,
        waitIndexed: pollIndexed(env.ctx.view),
      },
      mutate: (op, caller) => env.writer.d.mutate(op, caller),
      remember: env.remember,
      stateFile: sleepStateFile(env.cfg.data_dir),
      log: env.log,
    });
  },
};
