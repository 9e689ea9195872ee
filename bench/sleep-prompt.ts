// The nightly extraction's prompt assembly at scale: fitting 50,000 characters of material from a large backlog
// (fitBudget), and picking the known facts for the prompt from an index of 100,000 facts (knownFacts: facts the
// material names first), beside the same pick with a plain substring search per fact (the reference), rounds
// interleaved in one run. Nothing here calls a model: the LLM call's time is the endpoint's.
//
// Run: npx tsc -p tsconfig.json && node dist/bench/sleep-prompt.js [--facts 100000] [--rounds 9]
// Writes bench/results/sleep-prompt.json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BudgetItem, fitBudget } from '../actors/scheduler/sleep/budget.js';
import { factLine, KNOWN_FACTS_CHARS, knownFacts } from '../actors/scheduler/sleep/known.js';
import { factsAt } from '../actors/store-writer/facts-reader.js';
import { IndexWriter } from '../actors/store-writer/index-writer.js';
import { openIndex } from '../actors/store-writer/schema.js';
import type { FactDraft } from '../messages/common.js';
import { intArg, machine, median, personDoc, printTable, rng, writeResults } from './harness.js';

const FACTS = intArg('facts', 100_000);
const ROUNDS = intArg('rounds', 9);
const PER_NOTE = 10;
const SINGLE = new Set(['works_at', 'lives_in', 'has_role', 'has_status']);
const TEMPORARY = new Set(['staying_in', 'visiting']);
const PREDICATES = ['works_at', 'lives_in', 'has_role', 'prefers', 'knows', 'speaks', 'owns', 'likes', 'visited', 'reads'];

function time<T>(fn: () => T): [number, T] {
  const t0 = process.hrtime.bigint();
  const r = fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, r];
}

function bigIndex(file: string): void {
  const db = openIndex(file, { readonly: false });
  const w = new IndexWriter(db, { model: null, chunkerVersion: 'bench', now: () => Date.UTC(2025, 0, 1) });
  const r = rng(5);
  w.inTransaction(() => {
    for (let n = 0; n < Math.ceil(FACTS / PER_NOTE); n++) {
      const facts: FactDraft[] = PREDICATES.map((predicate, i) => ({
        predicate,
        object: i % 3 === 0 ? `Company ${Math.floor(r() * 500)}` : `value ${Math.floor(r() * 10_000)} of ${predicate}`,
        objectLink: null,
        validFrom: null,
        validUntil: null,
        temporary: false,
        confidence: null,
        line: 3 + i,
      }));
      w.upsertDocument(personDoc(n, facts));
    }
  });
  db.close();
}

/** A backlog: 200 conversations and 100 tasks of varied length, naming some people. */
function backlog(): BudgetItem[] {
  const r = rng(9);
  const out: BudgetItem[] = [];
  for (let i = 0; i < 300; i++) {
    const words = Array.from({ length: 50 + Math.floor(r() * 900) }, () =>
      r() < 0.02 ? `Person ${Math.floor(r() * (FACTS / PER_NOTE))}` : `word${Math.floor(r() * 5000)}`,
    );
    out.push({ interactive: i < 200, label: `item ${i}`, text: words.join(' ') });
  }
  return out;
}

/** The reference: the same pick with one substring search of the material per fact. */
function naivePick(db: ReturnType<typeof openIndex>, material: string, at: number): string[] {
  const rows = factsAt(db, { at, singleValued: SINGLE, includeSensitive: false });
  const hay = material.toLowerCase();
  const named = (s: string) => hay.includes(s.toLowerCase());
  const ordered = [
    ...rows.filter((f) => named(f.subject) || named(f.object)),
    ...rows.filter((f) => !(named(f.subject) || named(f.object))),
  ];
  const out: string[] = [];
  let used = 0;
  for (const f of ordered) {
    const line = factLine(f, TEMPORARY);
    if (used + line.length + 1 > KNOWN_FACTS_CHARS) break;
    out.push(line);
    used += line.length + 1;
  }
  return out;
}

const dir = mkdtempSync(path.join(tmpdir(), 'memvault-sleep-bench-'));
try {
  const file = path.join(dir, 'facts.sqlite');
  bigIndex(file);
  const db = openIndex(file, { readonly: true });
  const items = backlog();
  const raw = items.reduce((a, i) => a + i.text.length, 0);
  const fit: number[] = [];
  const known: number[] = [];
  const naive: number[] = [];
  let same = true;
  const at = Date.UTC(2026, 0, 1);
  for (let round = 0; round < ROUNDS + 1; round++) {
    const [a, fitted] = time(() => fitBudget(items, 50_000));
    const material = fitted.map((i) => i.text).join('\n');
    const [b, picked] = time(() => knownFacts(db, material, { singleValued: SINGLE, temporary: TEMPORARY }, at));
    const [c, reference] = time(() => naivePick(db, material, at));
    same &&= picked.join('\n') === reference.join('\n');
    if (round === 0) continue; // warm-up
    fit.push(a);
    known.push(b);
    naive.push(c);
  }
  db.close();
  const m = machine();
  console.log(`sleep-prompt on ${m.cpu} (${m.cpus} cpus, load ${m.loadavg1m.toFixed(1)}), ${FACTS} facts, ${ROUNDS} rounds\n`);
  printTable(
    ['step', 'p50 ms'],
    [
      [`fitBudget: ${items.length} items, ${raw} chars → 50,000`, median(fit).toFixed(2)],
      ['knownFacts (first-word filter)', median(known).toFixed(1)],
      ['reference: substring search per fact', median(naive).toFixed(1)],
    ],
  );
  console.log(`\nsame facts picked: ${same}; ratio reference/knownFacts ${(median(naive) / median(known)).toFixed(2)}`);
  const out = writeResults('sleep-prompt', {
    machine: m,
    facts: FACTS,
    rounds: ROUNDS,
    fit_budget_p50_ms: median(fit),
    known_facts_p50_ms: median(known),
    reference_p50_ms: median(naive),
    same,
  });
  console.log(`wrote ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
