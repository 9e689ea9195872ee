// Actor faults (issue 4, part 2): throw / exit / hang injected into every actor kind of an in-process daemon while
// notes are queued; checks restarts, escalation, backoff and that no queued note is lost; times fault → serving.
import { execFileSync } from 'node:child_process';
import {
  allZero,
  indexConsistency,
  makeVault,
  nextEvent,
  startDaemon,
  testConfig,
  within,
  type Running,
  type TestVault,
} from '../helpers/daemon.js';
import type { ActorFault } from '../../messages/actor.js';
import { destinationOf } from '../../messages/index.js';

export interface FaultSample {
  actor: string;
  fault: ActorFault;
  /** The actor failing (its exit seen by the supervisor) → its new incarnation ready (gateway: a search answered over HTTP). */
  servingMs: number;
  /** The actor failing → a note written right after the restart is indexed and found by search. */
  searchableMs: number;
  /** The backoff delay the supervisor waited before this restart (part of servingMs). */
  delayMs: number;
  /** hang only: the fault injected → the stall watchdog terminating the worker. */
  detectMs?: number;
}

export interface ActorFaultReport {
  faults: number;
  restartsByActor: Record<string, number>;
  escalations: number;
  lostWork: number;
  faultToServingMs: number[];
  faultToSearchableMs: number[];
  problems: string[];
  /** Per fault, for the report table (not part of the pass/fail figures). */
  samples: FaultSample[];
  /** Restart delays the supervisor reported for one child faulted repeatedly (should grow). */
  backoffDelaysMs: number[];
}

const ACTORS = ['store', 'embedder', 'chunker', 'watcher', 'gateway', 'git'] as const;
type Actor = (typeof ACTORS)[number];
const FAULTS: ActorFault[] = ['throw', 'exit', 'hang'];
const STALL_MS = 2_000; // the embedder gets twice this
const WAIT_MS = 60_000;
const now = (): number => performance.now();

function note(tag: string): string {
  return `# ${tag}\n\nA note written during the ${tag} fault mentions the beacon ${tag}.\n\n## More\n\nA second section for ${tag}.\n`;
}

/** One daemon with its vault and the notes written to it, so catch-up can be checked against the count. */
class Bench {
  written: string[] = [];
  constructor(
    readonly v: TestVault,
    readonly d: Running,
    readonly report: ActorFaultReport,
  ) {
    d.daemon.onSupervisor((e) => {
      if (e.type === 'supervisor.child_restarted') report.restartsByActor[e.child] = (report.restartsByActor[e.child] ?? 0) + 1;
      if (e.type === 'supervisor.escalated') report.escalations++;
    });
  }

  write(tag: string): string {
    const rel = `Inbox/${tag}.md`;
    this.v.write(rel, note(tag));
    this.written.push(tag);
    return rel;
  }

  async search(word: string): Promise<string | undefined> {
    const url = `http://127.0.0.1:${this.d.daemon.board.get('gatewayPort')}`;
    const r = await fetch(`${url}/v1/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.d.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: word, mode: 'bm25', k: 1 }),
    });
    if (r.status !== 200) throw new Error(`search answered ${r.status}`);
    return ((await r.json()) as { results: Array<{ path: string }> }).results[0]?.path;
  }

  /** Waits for catch-up, then counts notes missing from the index and checks the index tables agree. */
  async checkCaughtUp(label: string): Promise<void> {
    const { report } = this;
    try {
      await within(this.d.daemon.whenCaughtUp(), WAIT_MS, `${label}: catch-up`);
    } catch (err) {
      report.problems.push(String((err as Error).message));
    }
    const st = (await this.d.api('GET', '/v1/status')).body.index as { documents: number; chunks: number; vectors: number };
    const missing = this.written.length - st.documents;
    if (missing > 0) {
      report.lostWork += missing;
      report.problems.push(`${label}: ${missing} of ${this.written.length} notes are not indexed`);
    }
    if (st.vectors !== st.chunks) report.problems.push(`${label}: ${st.chunks} chunks but ${st.vectors} vectors`);
    const last = this.written.at(-1);
    if (last && (await this.search(last)) !== `Inbox/${last}.md`)
      report.problems.push(`${label}: search does not find the last note ${last}`);
    const c = await indexConsistency(this.d.cfg.data_dir);
    if (!allZero(c)) report.problems.push(`${label}: index tables disagree: ${JSON.stringify(c)}`);
  }
}

/** Injects `fault` into `actor` while notes are queued for it; times the restart; checks nothing was lost. */
async function faultCycle(b: Bench, actor: Actor, fault: ActorFault, tag: string): Promise<void> {
  const { d, report } = b;
  const handle = d.daemon.handles[actor];
  if (!handle) throw new Error(`no ${actor} actor in this daemon`);
  await within(d.daemon.whenCaughtUp(), WAIT_MS, `${tag}: catch-up before the fault`);
  report.faults++;

  const exited = nextEvent(d.daemon, (e) => e.type === 'supervisor.child_exited' && e.child === actor && !e.expected);
  // the cycle waits for every child restarted with the actor (rest_for_one takes those after it along)
  const started = new Map<string, number>();
  let delayMs = 0;
  let group: string[] | null = null;
  let allStarted!: () => void;
  const back = new Promise<void>((resolve) => (allStarted = resolve));
  const offStarted = d.daemon.onSupervisor((e) => {
    if (e.type === 'supervisor.restart_scheduled' && !group && e.children.includes(actor)) group = e.children;
    if (e.type === 'supervisor.child_started') started.set(e.child, now());
    if (e.type === 'supervisor.child_restarted' && e.child === actor) delayMs = e.delayMs;
    if (group?.every((c) => started.has(c))) allStarted();
  });

  let injectedAt = now();
  if (fault === 'throw')
    handle.fault('throw'); // the next message the actor handles throws
  else {
    // exit / hang the moment work is routed to the actor, so it goes down holding queued work; the gateway's
    // messages (gateway.indexed) are sent by main right after the watcher.done it observes
    const off = d.daemon.onRouted((m) => {
      if (actor === 'gateway' ? m.type !== 'watcher.done' : destinationOf(m) !== actor) return;
      off();
      injectedAt = now();
      try {
        handle.fault(fault);
      } catch (err) {
        report.problems.push(`${tag}: could not inject the fault: ${(err as Error).message}`);
      }
    });
  }
  for (let i = 0; i < 3; i++) b.write(`${tag}n${i}`);

  try {
    await within(exited, WAIT_MS, `${tag}: the ${actor} to go down`);
    const downAt = now();
    await within(back, WAIT_MS, `${tag}: the ${actor} (and the children restarted with it) to start again`);
    let servingAt = started.get(actor) ?? now(); // the brief's "serving": the actor's own new incarnation is ready
    if (actor === 'gateway') {
      await b.search(`${tag}n0`).catch(() => undefined); // any answer over HTTP is serving again
      servingAt = now();
    }
    const fresh = `${tag}fresh`;
    const done = d.daemon.nextDone(b.write(fresh));
    await within(done, WAIT_MS, `${tag}: a fresh note to be indexed`);
    if ((await b.search(fresh)) !== `Inbox/${fresh}.md`) report.problems.push(`${tag}: the fresh note is not searchable`);
    const searchableAt = now();
    const sample: FaultSample = {
      actor,
      fault,
      servingMs: Math.round(servingAt - downAt),
      delayMs,
      searchableMs: Math.round(searchableAt - downAt),
    };
    if (fault === 'hang') sample.detectMs = Math.round(downAt - injectedAt);
    report.samples.push(sample);
    report.faultToServingMs.push(sample.servingMs);
    report.faultToSearchableMs.push(sample.searchableMs);
  } catch (err) {
    report.problems.push(String((err as Error).message));
  } finally {
    offStarted();
  }
  await b.checkCaughtUp(tag);
  if (actor === 'git') await gitClean(b, tag);
}

/** The git writer's restart must not leave notes uncommitted: people's notes are committed after the quiet period. */
async function gitClean(b: Bench, tag: string): Promise<void> {
  const deadline = now() + 15_000;
  for (;;) {
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'Inbox'], { cwd: b.v.dir, encoding: 'utf8' }).trim();
    if (dirty === '') return;
    if (now() > deadline) {
      b.report.problems.push(`${tag}: notes left uncommitted after the git writer's restart: ${dirty.slice(0, 200)}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100)); // git status is another process's state: no event to await
  }
}

/** Faults the chunker past the ingest supervisor's intensity: ingest escalates, root restarts it whole, work completes. */
async function escalation(report: ActorFaultReport): Promise<void> {
  const v = makeVault({});
  const cfg = testConfig(
    v.dir,
    `supervisor:\n  intensity: 2\n  period_ms: 600000\n  backoff_min_ms: 100\n  backoff_max_ms: 1000\n  stall_ms: ${STALL_MS}\nwrites:\n  human_quiet_ms: 50\n`,
  );
  const d = await startDaemon(cfg);
  const b = new Bench(v, d, report);
  try {
    await d.daemon.whenCaughtUp();
    const delays: number[] = [];
    const offDelays = d.daemon.onSupervisor((e) => {
      if (e.type === 'supervisor.child_restarted' && e.child === 'chunker') delays.push(e.delayMs);
    });
    const escalated = nextEvent(d.daemon, (e) => e.type === 'supervisor.escalated' && e.supervisor === 'ingest');
    const ingestBack = nextEvent(
      d.daemon,
      (e) => e.type === 'supervisor.child_restarted' && e.supervisor === 'root' && e.child === 'ingest',
    );
    for (let i = 0; i < 3; i++) {
      report.faults++;
      const back = nextEvent(d.daemon, (e) => e.type === 'supervisor.child_started' && e.child === 'chunker');
      b.write(`escalate${i}`);
      d.daemon.handles.chunker!.fault('exit');
      await within(back, WAIT_MS, `escalation: the chunker to start again after fault ${i + 1}`);
    }
    await within(escalated, WAIT_MS, 'escalation: supervisor.escalated from ingest');
    await within(ingestBack, WAIT_MS, 'escalation: root to restart ingest as a whole');
    offDelays();
    report.backoffDelaysMs = delays;
    const [first, second] = delays;
    if (first === undefined || second === undefined || !(second > first))
      report.problems.push(`escalation: the chunker's restart delays did not grow: ${JSON.stringify(delays)}`);
    await within(d.daemon.nextDone(b.write('escalateafter')), WAIT_MS, 'escalation: a note written after ingest restarted to be indexed');
    await b.checkCaughtUp('escalation');
  } catch (err) {
    report.problems.push(String((err as Error).message));
  } finally {
    await d.stop();
    v.cleanup();
  }
}

export async function runActorFaults(opts: { rounds: number; log?: (line: string) => void }): Promise<ActorFaultReport> {
  const log = opts.log ?? (() => {});
  const report: ActorFaultReport = {
    faults: 0,
    restartsByActor: {},
    escalations: 0,
    lostWork: 0,
    faultToServingMs: [],
    faultToSearchableMs: [],
    problems: [],
    samples: [],
    backoffDelaysMs: [],
  };
  const v = makeVault({ 'Inbox/base.md': note('base') });
  // intensity high enough that single faults never escalate here; small backoff so restarts are quick
  const cfg = testConfig(
    v.dir,
    `supervisor:\n  intensity: 1000\n  period_ms: 60000\n  backoff_min_ms: 20\n  backoff_max_ms: 200\n  stall_ms: ${STALL_MS}\nwrites:\n  human_quiet_ms: 50\n`,
  );
  const d = await startDaemon(cfg);
  const b = new Bench(v, d, report);
  b.written.push('base');
  try {
    for (let round = 0; round < opts.rounds; round++) {
      for (const actor of ACTORS) {
        for (const fault of FAULTS) {
          await faultCycle(b, actor, fault, `r${round}${actor}${fault}`);
          const s = report.samples.at(-1);
          log(
            `round ${round} ${actor} ${fault}: ${s ? `serving ${s.servingMs} ms (backoff ${s.delayMs}), searchable ${s.searchableMs} ms${s.detectMs !== undefined ? `, hang detected after ${s.detectMs} ms` : ''}` : 'no sample'}`,
          );
        }
      }
    }
    const unexpected = report.escalations;
    if (unexpected > 0) report.problems.push(`${unexpected} escalation(s) during single-actor faults`);
  } finally {
    await d.stop();
    v.cleanup();
  }
  const before = report.escalations;
  await escalation(report);
  if (report.escalations === before) report.problems.push('escalation: no supervisor.escalated event');
  log(`escalation: chunker restart delays ${JSON.stringify(report.backoffDelaysMs)} ms`);
  return report;
}
