// The load of the overload run: a bulk drop of real and generated markdown written as fast as the disk takes it,
// and agents that search and write through the gateway in a loop until told to stop, timing every call.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProcessDaemon } from './lib/daemon-process.js';
import { corpusDir, corpusFiles } from '../helpers/corpora.js';

/** The drop's files, vault-relative, each with where its bytes come from. */
export interface DropFile {
  rel: string;
  from?: string; // a corpus file to copy
  text?: string; // a generated note
}

const WORDS = (
  'ledger lighthouse harbour migration postgres backup ferry orchard quarterly review budget sprint roadmap ' +
  'kernel cache latency invoice garden recipe hiking telescope archive compiler borrow lifetime trait module ' +
  'meeting agenda decision owner deadline risk vendor contract onboarding mentor feedback incident outage ' +
  'replica shard index vector search memory vault river granite copper violet amber saffron basil walnut'
).split(' ');

/** A small deterministic PRNG (mulberry32), so a run's notes are the same every time. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function generatedNote(i: number): string {
  const r = rng(i + 1);
  const w = () => WORDS[Math.floor(r() * WORDS.length)]!;
  const sentence = () => `${Array.from({ length: 8 + Math.floor(r() * 10) }, w).join(' ')} ${i}.`;
  const paras = Array.from({ length: 1 + Math.floor(r() * 2) }, () => Array.from({ length: 2 + Math.floor(r() * 2) }, sentence).join(' '));
  return `---\ntags: [${w()}, ${w()}]\n---\n# Note ${i}: ${w()} ${w()}\n\n${paras.join('\n\n')}\n\nSee [[Note ${(i * 7) % 997}]].\n`;
}

/** Corpus files (tldr pages, a share of long rust-book chapters) and generated notes, `total` in all. */
export function planDrop(total: number): DropFile[] {
  const tldr = corpusFiles('tldr-common'); // throws naming the folder when a corpus is missing
  const book = corpusFiles('rust-book');
  // about half real markdown; long chapters (~45 chunks each) are 1% of the drop, so they cost about a third of
  // the embedding work and the rest is many small notes
  const nBook = Math.min(book.length, Math.floor(total * 0.01));
  const nTldr = Math.min(tldr.length, Math.floor(total * 0.5) - nBook);
  const files: DropFile[] = [
    ...book.slice(0, nBook).map((f) => ({ rel: `Library/rust-book/${f}`, from: path.join(corpusDir('rust-book'), f) })),
    ...tldr.slice(0, nTldr).map((f, i) => ({ rel: `Library/tldr-${i % 4}/${f}`, from: path.join(corpusDir('tldr-common'), f) })),
  ];
  for (let i = 0; files.length < total; i++) files.push({ rel: `Drop/batch-${i % 8}/note-${i}.md`, text: generatedNote(i) });
  return files;
}

/** Writes every file into the vault, `concurrency` at a time: as fast as the disk takes them. */
export async function dropFiles(vault: string, files: DropFile[], concurrency = 32): Promise<void> {
  const dirs = new Set(files.map((f) => path.dirname(path.join(vault, f.rel))));
  await Promise.all([...dirs].map((d) => mkdir(d, { recursive: true })));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const f = files[i]!;
      const abs = path.join(vault, f.rel);
      if (f.from) await copyFile(f.from, abs);
      else await writeFile(abs, f.text ?? '');
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export interface WriteRecord {
  agent: string;
  path: string;
  content: string;
  ms: number;
  outcome: 'ok' | 'busy' | 'timeout' | 'failed';
  commit: string | null;
  detail: string;
}

export interface AgentStats {
  searchMs: number[];
  searchErrors: string[];
  searchesShowingPending: number;
  writes: WriteRecord[];
}

const QUERIES = [
  'how do I compress a folder',
  'ownership and borrowing',
  'quarterly budget review',
  'git rebase onto main',
  'lighthouse ferry harbour',
  'error handling with Result',
  'list open network ports',
  'incident outage owner',
];

/**
 * `agents` loops of search, search, write (into Inbox/<agent>/) until `stop.done`. A write slower than
 * `writeBoundMs` counts as timed out; `busy` is a refusal the agent honours by pausing briefly. Figures go into
 * `s` as they come, so the caller can watch the writes acknowledged so far.
 */
export async function runAgents(
  d: ProcessDaemon,
  agents: number,
  stop: { done: boolean },
  writeBoundMs: number,
  s: AgentStats,
): Promise<AgentStats> {
  const agent = async (a: number) => {
    const name = `agent-${a}`;
    for (let i = 0; !stop.done; i++) {
      if (i % 3 !== 2) {
        const t0 = performance.now();
        try {
          const r = await d.api(
            'POST',
            '/v1/search',
            { query: QUERIES[(a + i) % QUERIES.length], mode: 'hybrid', k: 5 },
            { agent: name, timeoutMs: 30_000 },
          );
          s.searchMs.push(performance.now() - t0);
          if (r.status !== 200) s.searchErrors.push(`${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          else if (r.body?.index?.pending > 0) s.searchesShowingPending++;
        } catch (err) {
          s.searchMs.push(performance.now() - t0);
          s.searchErrors.push(String(err));
        }
        continue;
      }
      const rel = `Inbox/${name}/w${i}.md`;
      const content = `# ${name} write ${i}\n\nNoted during the overload run: ${QUERIES[i % QUERIES.length]} (${a}/${i}).\n`;
      const t0 = performance.now();
      const rec: WriteRecord = { agent: name, path: rel, content, ms: 0, outcome: 'failed', commit: null, detail: '' };
      try {
        const r = await d.tool('vault_write', { path: rel, content }, name);
        rec.ms = performance.now() - t0;
        if (r.status === 200) {
          rec.commit = r.body.commit;
          rec.outcome = rec.ms > writeBoundMs ? 'timeout' : 'ok';
          rec.detail = rec.outcome === 'timeout' ? `acknowledged after ${Math.round(rec.ms)} ms` : '';
        } else if (r.status === 503 && r.body?.error?.reason === 'busy') rec.outcome = 'busy';
        else {
          rec.outcome = r.body?.error?.reason === 'unavailable' ? 'timeout' : 'failed';
          rec.detail = `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
        }
      } catch (err) {
        rec.ms = performance.now() - t0;
        rec.outcome = 'timeout';
        rec.detail = String(err);
      }
      s.writes.push(rec);
      // load pacing, not a wait for an event: a refused agent backs off before its next call
      if (rec.outcome === 'busy') await new Promise((r) => setTimeout(r, 250));
    }
  };
  await Promise.all(Array.from({ length: agents }, (_, a) => agent(a)));
  return s;
}
