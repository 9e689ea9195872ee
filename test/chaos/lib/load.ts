// The mixed load of one crash cycle: four agents writing and undoing through the gateway, a person editing Daily/
// directly (overwrite, atomic-rename save, delete, rename), and a bulk drop of corpus files — all into the ledger.
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ProcessDaemon } from './daemon-process.js';
import { sha256, withSum, type Ledger, type Outcome } from './ledger.js';
import { gitBlob, type Model } from './model.js';
import { rng } from '../../../bench/harness.js';
import { corpusDir, corpusFiles } from '../../helpers/corpora.js';

export { rng }; // seeded (mulberry32), so a failing cycle can be replayed with its seed

export interface Corpus {
  files: { name: string; abs: string }[];
}

/** The shared corpora (tldr-pages, the Rust book); throws naming the folder when it is missing. */
export function loadCorpus(): Corpus {
  const files: Corpus['files'] = [];
  for (const sub of ['tldr-common', 'rust-book'] as const) {
    for (const n of corpusFiles(sub))
      files.push({ name: `${sub === 'rust-book' ? 'rb' : 'tldr'}-${n}`, abs: path.join(corpusDir(sub), n) });
  }
  return { files };
}

const WORDS = 'lighthouse harbour ledger migration atlas quarterly review sprint retro budget kernel cache index vector'.split(' ');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LoadCtx {
  d: ProcessDaemon;
  vault: string;
  cycle: number;
  rand: () => number;
  ledger: Ledger;
  model: Model;
  corpus: Corpus;
  /** When the bulk drop starts, ms after the load starts. */
  bulkAtMs: number;
  bulkCount: number;
}

export interface Load {
  stopped: boolean;
  /** Resolves when every actor has finished its current op. */
  done: Promise<void>;
  stop(): Promise<void>;
}

function body(rand: () => number, title: string, seq: number): string {
  const words = Array.from({ length: 8 + Math.floor(rand() * 30) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  return withSum(`# ${title}\n\nop ${seq}: ${words}\n`);
}

function outcomeOf(status: number, b: any, thrown: unknown): Outcome {
  if (thrown !== undefined) return { kind: 'unknown', why: String((thrown as Error)?.cause ?? thrown) };
  if (status === 200)
    return { kind: 'acked', commit: b?.commit ?? null, contentHash: b?.content_hash ?? null, paths: b?.paths ?? (b?.path ? [b.path] : []) };
  const reason = String(b?.error?.reason ?? `http_${status}`);
  // `unavailable` may mean "written but not committed": the disk may or may not have changed
  if (reason === 'unavailable' || status >= 500) return { kind: 'unknown', why: `${reason}: ${b?.error?.message ?? ''}` };
  return { kind: 'refused', reason, message: String(b?.error?.message ?? '') };
}

async function agentLoop(c: LoadCtx, l: Load, agent: string): Promise<void> {
  let k = 0;
  while (!l.stopped) {
    const mine = c.model.agentPaths(agent);
    const roll = c.rand();
    if (roll < 0.15 && mine.length > 0) {
      const op = c.ledger.begin({ cycle: c.cycle, agent, tool: 'vault_undo_last' });
      let res: { status: number; body: any } = { status: 0, body: null };
      let thrown: unknown;
      try {
        res = await c.d.tool('vault_undo_last', { only_mine: true }, agent);
      } catch (err) {
        thrown = err;
      }
      const out = outcomeOf(res.status, res.body, thrown);
      c.ledger.end(op, out);
      if (out.kind === 'acked' && out.commit) {
        for (const p of out.paths) {
          const b = await gitBlob(c.vault, out.commit, p);
          c.model.set(p, b === null ? null : sha256(b));
        }
      } else if (out.kind === 'unknown') c.model.looseAgents.add(agent);
      continue;
    }
    const rel = roll < 0.55 && mine.length > 0 ? mine[Math.floor(c.rand() * mine.length)]! : `Inbox/${agent}/c${c.cycle}-n${k++}.md`;
    const content = body(c.rand, `${agent} ${path.basename(rel, '.md')}`, c.ledger.agentOps.length);
    const sent = sha256(content);
    c.model.owner.set(rel, agent);
    const op = c.ledger.begin({ cycle: c.cycle, agent, tool: 'vault_write', path: rel, sentHash: sent });
    let res: { status: number; body: any } = { status: 0, body: null };
    let thrown: unknown;
    try {
      res = await c.d.tool('vault_write', { path: rel, content, reason: `chaos cycle ${c.cycle}` }, agent);
    } catch (err) {
      thrown = err;
    }
    const out = outcomeOf(res.status, res.body, thrown);
    c.ledger.end(op, out);
    if (out.kind === 'acked') c.model.set(rel, out.contentHash ?? sent);
    else if (out.kind === 'unknown') c.model.maybe(rel, sent);
    else await pause(50); // a refusal answers in microseconds: the read-only agent would otherwise spin
  }
}

/** The person: plain overwrite, editor-style atomic save (`.name.md.swp` then rename over), delete, rename. */
async function personLoop(c: LoadCtx, l: Load): Promise<void> {
  let k = 0;
  const abs = (rel: string) => path.join(c.vault, rel);
  mkdirSync(abs('Daily'), { recursive: true });
  while (!l.stopped) {
    await pause(20 + Math.floor(c.rand() * 80));
    if (l.stopped) break;
    const mine = [...c.model.expect].filter(([p, s]) => p.startsWith('Daily/') && !s.has(null)).map(([p]) => p);
    const pick = mine[Math.floor(c.rand() * mine.length)];
    const roll = c.rand();
    const seq = k++;
    if (!pick || roll < 0.25) {
      const rel = `Daily/c${c.cycle}-p${seq}.md`;
      const content = body(c.rand, `person ${seq}`, seq);
      writeFileSync(abs(rel), content);
      c.model.set(rel, sha256(content));
      c.ledger.person({ cycle: c.cycle, kind: 'create', path: rel, contentHash: sha256(content) });
    } else if (roll < 0.5) {
      const content = body(c.rand, `person edit ${seq}`, seq);
      writeFileSync(abs(pick), content);
      c.model.set(pick, sha256(content));
      c.ledger.person({ cycle: c.cycle, kind: 'overwrite', path: pick, contentHash: sha256(content) });
    } else if (roll < 0.75) {
      const content = body(c.rand, `person save ${seq}`, seq);
      const swp = path.join(path.dirname(abs(pick)), `.${path.basename(pick)}.swp`);
      writeFileSync(swp, content);
      renameSync(swp, abs(pick));
      c.model.set(pick, sha256(content));
      c.ledger.person({ cycle: c.cycle, kind: 'atomic_save', path: pick, contentHash: sha256(content) });
    } else if (roll < 0.87) {
      rmSync(abs(pick));
      c.model.set(pick, null);
      c.ledger.person({ cycle: c.cycle, kind: 'delete', path: pick, contentHash: null });
    } else {
      const to = `Daily/c${c.cycle}-r${seq}.md`;
      renameSync(abs(pick), abs(to));
      const h = [...c.model.expect.get(pick)!][0]!;
      c.model.set(pick, null);
      c.model.set(to, h);
      c.ledger.person({ cycle: c.cycle, kind: 'rename', path: pick, to, contentHash: h });
    }
  }
}

/** Copies `bulkCount` corpus files into Projects/bulk-<cycle>/, yielding between files so a kill can land mid-drop. */
async function bulkDrop(c: LoadCtx, l: Load): Promise<void> {
  await pause(c.bulkAtMs);
  const dir = `Projects/bulk-${c.cycle}`;
  mkdirSync(path.join(c.vault, dir), { recursive: true });
  const used = new Set<number>();
  for (let i = 0; i < c.bulkCount && !l.stopped; i++) {
    // mostly short tldr pages; a Rust book chapter now and then (long, many chunks)
    let n = Math.floor(c.rand() * c.corpus.files.length);
    while (used.has(n)) n = (n + 1) % c.corpus.files.length;
    used.add(n);
    const f = c.corpus.files[n]!;
    if (f.name.startsWith('rb-') && c.rand() < 0.7) continue;
    const rel = `${dir}/${f.name}`;
    copyFileSync(f.abs, path.join(c.vault, rel));
    c.model.set(rel, sha256(readFileSync(f.abs)));
    c.ledger.bulk.push({ cycle: c.cycle, path: rel, source: f.abs });
    if (i % 8 === 7) await pause(2);
  }
}

/** Starts every actor of the load; `stop()` asks them to finish their current op and resolves when they have. */
export function startLoad(c: LoadCtx, agents: string[]): Load {
  const l: Load = {
    stopped: false,
    done: Promise.resolve(),
    async stop() {
      l.stopped = true;
      await l.done;
    },
  };
  l.done = Promise.all([...agents.map((a) => agentLoop(c, l, a)), personLoop(c, l), bulkDrop(c, l)]).then(() => undefined);
  return l;
}
