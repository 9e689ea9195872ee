// The intent journal is what lets the next start record an agent's cut-off write as the agent's. A kill -9 at any
// instant must leave every intent whose record() had resolved (and that was not cleared) readable: the crash cycles
// once found a write recorded as the person's because rewriting the journal in place emptied it first.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { IntentJournal } from '../../actors/git-writer/intent-journal.js';

const child = fileURLToPath(new URL('../helpers/intent-journal-child.js', import.meta.url));
const CYCLES = 40;

/** Runs the child until it has reported `after` durable intents, kills it, and returns what it said. */
function runAndKill(file: string, after: number): Promise<{ durable: Set<number>; cleared: Set<number> }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    const durable = new Set<number>();
    const cleared = new Set<number>();
    let rest = '';
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) {
        const [kind, n] = l.split(' ');
        (kind === 'r' ? durable : cleared).add(Number(n));
      }
      if (durable.size >= after) p.kill('SIGKILL');
    });
    p.on('error', reject);
    p.on('close', () => resolve({ durable, cleared }));
  });
}

t.test(`${CYCLES} kill -9s of a process recording intents lose no durable intent`, { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'memvault-journal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let checked = 0;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const file = path.join(dir, `journal-${cycle}.json`);
    const { durable, cleared } = await runAndKill(file, 20 + ((cycle * 37) % 180));
    const left = await new IntentJournal(file).read();
    const held = new Set([...(left?.intent ? [left.intent] : []), ...(left?.intents ?? [])].map((i) => Number(i.paths[0]!.slice(7, -3))));
    const missing = [...durable].filter((n) => !cleared.has(n) && !held.has(n));
    checked += durable.size - cleared.size;
    if (missing.length > 0) {
      t.fail(`cycle ${cycle}: durable intents ${missing.join(', ')} are not in the journal after the kill`);
      return;
    }
  }
  t.ok(checked >= CYCLES, `every cycle killed the child with intents in flight (${checked} checked)`);
});
