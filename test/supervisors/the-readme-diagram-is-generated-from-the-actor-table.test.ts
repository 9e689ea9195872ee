// The README's picture of the supervision trees and of who sends what to whom is the one the actor table
// (supervisors/actors.ts) generates, so neither can drift from the other (`make diagram` prints it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ACTORS, MAIN, pipelineDiagram } from '../../supervisors/actors.js';
import { REPO } from '../helpers/daemon.js';

t.test('the README holds the diagram the table generates', async (t) => {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const diagram = pipelineDiagram();
  t.ok(readme.includes('```\n' + diagram + '\n```'), 'README.md shows pipelineDiagram() verbatim: run `make diagram` and paste it');
  for (const name of Object.keys(ACTORS)) t.match(diagram, new RegExp(`── ${name} `), `${name} is in the tree`);
  const edges = [...Object.values(ACTORS), MAIN].flatMap((s) => [...Object.keys(s.sends), ...Object.keys(s.requests)]);
  for (const type of edges) t.ok(diagram.includes(`→ ${type}`) || diagram.includes(`⇒ ${type}`), `${type} is drawn`);
});

t.test('every message an actor sends goes to an actor that exists', async (t) => {
  const names = new Set([...Object.keys(ACTORS), 'main']);
  for (const [from, s] of [...Object.entries(ACTORS), ['main', MAIN] as const]) {
    for (const type of [...Object.keys(s.sends), ...Object.keys(s.requests)]) {
      t.ok(names.has(type.slice(0, type.indexOf('.'))), `${from} → ${type}: its destination is an actor`);
    }
  }
});
