// Wall-clock jumps under a running daemon: the daemon process runs under libfaketime (wall clock moved through a
// timestamp file, monotonic clock real — as with a real NTP step or a suspended VM), and while the clock jumps a
// day back and a year forward a person edits and deletes notes and an agent writes with expected_mtime checks.
// Wanted: one commit per agent write, each person's edit committed exactly once, no bogus `conflict`, every edit
// indexed once, deletes not held back by the jump, no actor restarts, lag figures never negative or absurd — and
// the scheduler (a job every 5 s, its LLM a chat-completions server on loopback) never runs a slot twice:
// nothing after a step back, no burst after a year forward (scheduler-jumps.ts).
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { until } from './lib/daemon-process.js';
import { Checks, commitLog, fsck, git, logEvents, makeRig, restarts, settle, type DiskClockReport, type Rig } from './disk-common.js';
import { firedSince, SCHEDULER_HOLD_MS, SCHEDULER_YAML, schedulerChecks, startSchedulerLlm } from './scheduler-jumps.js';

export const LIBFAKETIME =
  ['/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1', '/usr/lib/faketime/libfaketimeMT.so.1'].find((f) => existsSync(f)) ?? null;

const AGENT_NOTE = 'Projects/agent.md';
const PERSON_NOTE = 'People/person.md';
const PHASES = [
  { name: 'back_1_day', offset: '-1d' },
  { name: 'forward_1_year', offset: '+365d' },
  { name: 'back_to_now', offset: '+0d' },
] as const;
const AGENT_WRITES_PER_PHASE = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Status lag figures: none negative, none beyond what this short run could produce. */
async function lagProblems(r: Rig): Promise<string[]> {
  const out: string[] = [];
  const s = (await r.daemon.api('GET', '/v1/status')).body?.index;
  const age = s?.oldest_pending_age_ms;
  if (age !== null && (typeof age !== 'number' || age < 0 || age > 60_000)) out.push(`oldest_pending_age_ms ${age}`);
  const m = await r.daemon.api('GET', '/metrics');
  const lag = /^memvault_index_lag_seconds (\S+)$/m.exec(String(m.body));
  if (lag && (Number(lag[1]) < 0 || Number(lag[1]) > 60)) out.push(`memvault_index_lag_seconds ${lag[1]}`);
  return out;
}

export async function runClockJumps(): Promise<DiskClockReport> {
  const c = new Checks();
  if (!LIBFAKETIME) {
    c.add('clock.libfaketime_installed', false, 'libfaketime not found: apt-get install -y faketime');
    return c.report();
  }
  const stampDir = mkdtempSync(path.join(os.tmpdir(), 'memvault-faketime-'));
  const stampFile = path.join(stampDir, 'faketime');
  writeFileSync(stampFile, '+0d\n');
  const llm = await startSchedulerLlm();
  const rig = makeRig(
    { [AGENT_NOTE]: '# Agent\n\nversion 0\n', [PERSON_NOTE]: '# Person\n\nedit 0\n' },
    {
      env: { LD_PRELOAD: LIBFAKETIME, FAKETIME_TIMESTAMP_FILE: stampFile, FAKETIME_NO_CACHE: '1', DONT_FAKE_MONOTONIC: '1' },
      yaml: SCHEDULER_YAML(llm.url),
    },
  );
  const v = rig.vault.dir;
  const d = rig.daemon;
  const lag: string[] = [];
  let agentWrites = 0;
  let personEdits = 0;
  try {
    await d.start();
    await d.caughtUp();
    const commits0 = (await commitLog(v)).length;
    const read = await d.tool('vault_read', { path: AGENT_NOTE }, 'agent-1');
    let mtime = read.body?.mtime_ms as number;
    let hash = read.body?.content_hash as string;
    const conflicts: string[] = [];
    const hashBreaks: string[] = [];
    const shas = new Set<string>();
    let victim = 0;
    // where each phase's log lines start, and how long it lasted (the scheduler's fires are read back per phase)
    const phaseLog: Array<{ name: string; offset: number; ms: number }> = [];
    const logSize = () => (existsSync(rig.logFile) ? statSync(rig.logFile).size : 0);
    await firedSince(rig.logFile, 0, 15_000); // the scheduler runs its job before the clock moves
    for (const phase of PHASES) {
      // a person deletes a note just before the jump: its rename-window deadline was set on the old clock
      const gone = `Daily/victim-${victim++}.md`;
      rig.vault.write(gone, `# Victim\n\nto be deleted in ${phase.name}\n`);
      const indexedVictim = await settle(rig, 15_000);
      if (indexedVictim.length) c.add(`clock.${phase.name}.setup`, false, indexedVictim.join('; '));
      rmSync(path.join(v, gone));
      await sleep(100); // past the 30 ms debounce, inside the 400 ms rename window: the delete is being held
      const last = phaseLog.at(-1);
      if (last) last.ms = performance.now() - last.ms;
      phaseLog.push({ name: phase.name, offset: logSize(), ms: performance.now() });
      writeFileSync(stampFile, `${phase.offset}\n`); // the wall clock jumps now
      // a year forward, the scheduler sees the new time at its next look (at most 10 s): let it, within this phase
      if (phase.name === 'forward_1_year') await firedSince(rig.logFile, phaseLog.at(-1)!.offset, 15_000);
      lag.push(...(await lagProblems(rig)).map((p) => `${phase.name}, delete held across the jump: ${p}`));
      const t0 = performance.now();
      const held = await settle(rig, 15_000);
      c.add(
        `clock.${phase.name}.delete_not_held_back`,
        held.length === 0,
        held.join('; ') || `${gone} removed from the index`,
        performance.now() - t0,
      );

      // the person edits while the agent writes with expected_mtime
      writeFileSync(path.join(v, PERSON_NOTE), `# Person\n\nedit ${++personEdits} in ${phase.name}\n`);
      for (let i = 0; i < AGENT_WRITES_PER_PHASE; i++) {
        const before = await d.tool('vault_read', { path: AGENT_NOTE }, 'agent-1');
        if (before.body?.content_hash !== hash)
          hashBreaks.push(`${phase.name}#${i}: read ${String(before.body?.content_hash).slice(0, 12)}, last written ${hash.slice(0, 12)}`);
        const w = await d.tool(
          'vault_write',
          { path: AGENT_NOTE, content: `# Agent\n\nversion ${agentWrites + 1} in ${phase.name}\n`, expected_mtime: mtime },
          'agent-1',
        );
        if (w.status !== 200) conflicts.push(`${phase.name}#${i}: HTTP ${w.status} ${w.body?.error?.reason}: ${w.body?.error?.message}`);
        else {
          agentWrites++;
          mtime = w.body.mtime_ms;
          hash = w.body.content_hash;
          if (typeof w.body.commit === 'string') shas.add(w.body.commit);
        }
        lag.push(...(await lagProblems(rig)));
      }
      let status = '';
      try {
        await until(
          "the person's edit to be committed",
          15_000,
          async () => ((status = (await git(v, ['status', '--porcelain', '--', PERSON_NOTE])).out.trim()) === '' ? true : undefined),
          50,
        );
      } catch {
        /* reported below */
      }
      c.add(`clock.${phase.name}.person_edit_committed`, status === '', status || 'committed');
      const diff = await settle(rig, 30_000);
      c.add(`clock.${phase.name}.index_matches_vault`, diff.length === 0, diff.join('; ') || 'index = vault');
      lag.push(...(await lagProblems(rig)));
      // after a step back, a scheduler that ran old slots again would do it at its next slot: give it a few
      const hold = SCHEDULER_HOLD_MS - (performance.now() - phaseLog.at(-1)!.ms);
      if (phase.name !== 'forward_1_year' && hold > 0) await sleep(hold);
    }
    const total = AGENT_WRITES_PER_PHASE * PHASES.length;
    c.add(
      'clock.no_bogus_conflicts',
      conflicts.length === 0 && agentWrites === total,
      conflicts.join(' | ') || `${agentWrites}/${total} expected_mtime writes accepted`,
    );
    c.add(
      'clock.expected_hash_chain_unbroken',
      hashBreaks.length === 0,
      hashBreaks.join(' | ') || 'every read returned the hash the previous write reported',
    );

    // one commit per agent write; each person's edit (and delete) exactly once — wait for the last quiet period
    await until(
      'git to be clean',
      15_000,
      async () => ((await git(v, ['status', '--porcelain'])).out.trim() === '' ? true : undefined),
      50,
    ).catch(() => undefined);
    const log = (await commitLog(v)).slice(0, -commits0 || undefined);
    const agentCommits = log.filter((l) => l.includes(AGENT_NOTE) && l.endsWith('|memvault')).length;
    c.add(
      'clock.one_commit_per_agent_write',
      agentCommits === agentWrites && shas.size === agentWrites,
      `${agentCommits} agent commits, ${shas.size} distinct shas for ${agentWrites} writes`,
    );
    const personTouches =
      (await git(v, ['log', '--format=%H', '--author=vault owner', '--', PERSON_NOTE])).out.trim().split('\n').filter(Boolean).length - 1; // minus the import
    c.add(
      'clock.person_edits_committed_exactly_once',
      personTouches === personEdits,
      `${personTouches} commits of ${PERSON_NOTE} by the person for ${personEdits} edits; log: ${log.join(' / ').slice(0, 300)}`,
    );
    const f = await fsck(v);
    c.add('clock.git_sound', f === null, f ?? 'fsck clean');

    // every edit indexed exactly once (re-examining an unchanged note is a touch, not an ingest)
    const ingests = (p: string) => logEvents(rig.logFile, 'memory_ingest').filter((e) => e.path === p).length;
    // the agent's back-to-back versions may coalesce (one superseded while in flight is never indexed); the person's
    // edits are spaced out, so each is indexed exactly once
    const a = ingests(AGENT_NOTE);
    c.add(
      'clock.each_edit_indexed_once',
      a >= 1 + PHASES.length && a <= 1 + agentWrites && ingests(PERSON_NOTE) === 1 + personEdits,
      `${AGENT_NOTE}: ${a} ingests for 1 + ${agentWrites} versions (at most one each); ${PERSON_NOTE}: ${ingests(PERSON_NOTE)} for 1 + ${personEdits} edits`,
    );
    c.add(
      'clock.lag_figures_sane',
      lag.length === 0,
      lag.join('; ') || 'oldest_pending_age_ms and memvault_index_lag_seconds within [0, 60 s] throughout',
    );
    const last = phaseLog.at(-1);
    if (last) last.ms = performance.now() - last.ms;
    schedulerChecks(c, rig.logFile, phaseLog);
    const n = restarts(rig.logFile);
    c.add('clock.no_actor_restarts', n === 0, `${n} actor exits logged`);
  } catch (err) {
    c.add('clock.run', false, `threw: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await d.stop().catch(() => undefined);
    await llm.close();
    rig.vault.cleanup();
    rmSync(stampDir, { recursive: true, force: true });
  }
  return c.report();
}
