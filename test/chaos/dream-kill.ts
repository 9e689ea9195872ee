// The dream under kill -9 (issue 12): the daemon — its own process — is killed in the middle of a dream run, after a
// random number of the run's page writes, cycle after cycle, on one vault. After every kill the day logs are
// byte-identical, the watermark has not moved, the run's finished writes are whole commits (clean work tree, each
// page as committed, trailers naming the run); after the restart the run shows as `interrupted`, no failure is
// counted, and at the end a run resumes the batch, merges into the pages left behind and advances the watermark.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { dayLog, page } from '../dream/helpers/rig.js';
import { factId } from '../../actors/memory/fact-log.js';
import { git, makeVault, testConfig } from '../helpers/daemon.js';
import { FakeLlm, promptText } from '../helpers/fake-llm.js';
import { ProcessDaemon } from './lib/daemon-process.js';
import { rng } from './lib/load.js';

export interface DreamKillReport {
  cycles: number;
  /** Page writes the killed runs finished (each must be a whole commit). */
  pagesBeforeKill: number;
  /** Watermark after the resumed run (the batch's last day when all went well). */
  watermark: string | null;
  problems: string[];
}

const dayBefore = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of readdirSync(path.join(dir, 'Memory', 'Log')).sort())
    out[n] = createHash('sha256')
      .update(readFileSync(path.join(dir, 'Memory', 'Log', n)))
      .digest('hex');
  return out;
}

export async function runDreamKill(opts: { cycles: number; seed?: number; log?: (l: string) => void }): Promise<DreamKillReport> {
  const seed = opts.seed ?? Date.now() % 1_000_000;
  const rand = rng(seed);
  const log = opts.log ?? (() => {});
  const [d1, d2] = [dayBefore(3), dayBefore(2)];
  const facts = { [d1]: ['Atlas cutover is on 5 December', 'Tom drives the rollback rehearsal'], [d2]: ['Maya leads the data checks'] };
  const v = makeVault({ [`Memory/Log/${d1}.md`]: dayLog(d1, facts[d1]!), [`Memory/Log/${d2}.md`]: dayLog(d2, facts[d2]!) });
  const llm = await FakeLlm.start();
  const yaml = `llm:\n  base_url: ${llm.url}\n  models: { default: fake-model }\n  max_retries: 0\n  timeout_s: 600\nscheduler:\n  tz: UTC\ndream:\n  enabled: false\n`;
  const cfg = testConfig(v.dir, yaml, { logLevel: 'info' });
  const d = new ProcessDaemon({
    vault: v.dir,
    configFile: cfg.config_file!,
    dataDir: cfg.data_dir,
    logFile: path.join(path.dirname(v.dir), 'daemon.log'),
  });
  const report: DreamKillReport = { cycles: 0, pagesBeforeKill: 0, watermark: null, problems: [] };
  const problem = (p: string) => report.problems.push(p);
  const logs = hashes(v.dir);
  const ids = Object.entries(facts).flatMap(([day, fs]) => fs.map((f) => factId(day, f)));
  log(`dream: seed ${seed}; vault ${v.dir}`);
  try {
    await d.start();
    await d.caughtUp();
    for (let cycle = 1; cycle <= opts.cycles; cycle++) {
      const writes = 1 + Math.floor(rand() * 3);
      for (let i = 0; i < writes; i++)
        llm.script({
          toolCalls: [
            {
              name: 'vault_write',
              arguments: {
                path: `Memory/Wiki/Cycle ${cycle} page ${i}.md`,
                content: page([ids[i % ids.length]!], `# Page ${i}\n\nWritten in cycle ${cycle}.`),
              },
            },
          ],
        });
      llm.script({ hang: true });
      const hung = new Promise<void>((resolve) => {
        let seen = 0;
        const wait = () =>
          void llm.nextChat().then(() => {
            if (++seen === writes + 1) resolve();
            else wait();
          });
        wait();
      });
      const run = d.api('POST', '/v1/consolidate', {}, { timeoutMs: 120_000 }).catch(() => null); // cut off by the kill
      await hung; // the run's `writes` pages are committed and it waits on the model: the middle of a run
      await d.kill9();
      await run;
      report.pagesBeforeKill += writes;
      if (JSON.stringify(hashes(v.dir)) !== JSON.stringify(logs)) problem(`cycle ${cycle}: a day log changed`);
      try {
        readFileSync(path.join(v.dir, 'Memory', 'log.md'));
        problem(`cycle ${cycle}: Memory/log.md exists: the watermark moved without a finished run`);
      } catch {
        // no journal: the watermark did not move
      }
      const dirty = git(v.dir, 'status', '--porcelain', '--untracked-files=all').trim();
      if (dirty) problem(`cycle ${cycle}: uncommitted changes after the kill: ${dirty}`);
      for (let i = 0; i < writes; i++) {
        const rel = `Memory/Wiki/Cycle ${cycle} page ${i}.md`;
        const body = git(v.dir, 'log', '-1', '--format=%(trailers:only,unfold)', '--', rel);
        if (!/Memvault-Agent: dream/.test(body) || !/Memvault-Reason: dream run dream-/.test(body))
          problem(`cycle ${cycle}: ${rel} is not a dream commit`);
        if (readFileSync(path.join(v.dir, rel), 'utf8') !== git(v.dir, 'show', `HEAD:${rel}`))
          problem(`cycle ${cycle}: ${rel} differs from its commit`);
      }
      await d.start();
      await d.caughtUp();
      const s = (await d.api('GET', '/v1/dream')).body;
      if (s.running !== false || s.watermark !== null) problem(`cycle ${cycle}: after the restart ${JSON.stringify(s)}`);
      if (s.last_run?.outcome !== 'interrupted') problem(`cycle ${cycle}: last_run is ${JSON.stringify(s.last_run)}, not interrupted`);
      if (Object.keys(s.failures ?? {}).length) problem(`cycle ${cycle}: a kill counted as a failure: ${JSON.stringify(s.failures)}`);
      report.cycles++;
      log(`dream cycle ${cycle}: killed after ${writes} page writes`);
    }
    // the next run resumes the batch: it sees the pages the killed runs left and merges into one of them
    const before = llm.chats().length;
    llm.script(
      {
        toolCalls: [
          {
            name: 'vault_write',
            arguments: {
              path: 'Memory/Wiki/Atlas.md',
              content: page(
                ids,
                '# Atlas\n\nAtlas cutover is on 5 December. Tom drives the rollback rehearsal. Maya leads the data checks.',
              ),
            },
          },
        ],
      },
      { content: 'done' },
    );
    const r = await d.api('POST', '/v1/consolidate', {}, { timeoutMs: 120_000 });
    if (r.status !== 200 || r.body.outcome !== 'consolidated') problem(`resumed run: ${r.status} ${JSON.stringify(r.body)}`);
    const prompt = promptText(llm.chats()[before]!);
    if (opts.cycles > 0 && !prompt.includes('Memory/Wiki/Cycle 1 page 0.md'))
      problem('the resumed run was not shown the pages the killed run wrote');
    report.watermark = (await d.api('GET', '/v1/dream')).body.watermark;
    if (report.watermark !== d2) problem(`watermark ${report.watermark}, expected ${d2}`);
    if (JSON.stringify(hashes(v.dir)) !== JSON.stringify(logs)) problem('a day log changed');
  } finally {
    await d.stop();
    await llm.close();
    if (report.problems.length === 0) v.cleanup();
    else log(`kept ${path.dirname(v.dir)} for inspection`);
  }
  return report;
}
