// memory_add_fact writes only what the chunker reads back: every object factProblem lets through, formatted as a
// fact line, is read as one fact with that object (a wikilink as its target); one the reader would drop or change —
// a code span, which is never a fact — is refused instead of being answered `added` and lost.
import t from 'tap';
import { factProblem, formatFactLine } from '../../actors/knowledge/fact-lines.js';
import { parse } from '../chunker/helpers.js';

const OBJECTS = [
  'tea',
  'a `b` c',
  '`code`',
  'x ``y`` z',
  '<b>html</b>',
  'a | b',
  'a (b) c',
  '(x',
  '#tag only',
  '---',
  '> quote',
  '1. one',
  'https://a.b/c?d=e#f',
  'café ☕',
  '*em* and _u_',
  '[[Acme Corp]]',
];

t.test('every object memory_add_fact accepts is read back as the same object', async (t) => {
  for (const object of OBJECTS) {
    const problem = factProblem({ predicate: 'knows', object });
    if (problem !== null) {
      t.match(problem, /^object /, `${JSON.stringify(object)} is refused naming the object`);
      continue;
    }
    const facts = parse(`# Zed\n\n## Facts\n\n${formatFactLine({ predicate: 'knows', object })}\n`).facts;
    t.equal(facts.length, 1, `${JSON.stringify(object)} is read as one fact`);
    t.equal(facts[0]?.object, object.replace(/^\[\[(.*)\]\]$/, '$1'), `${JSON.stringify(object)} is read back as written`);
  }
  for (const object of ['a `b` c', '`code`', 'x ``y`` z'])
    t.match(factProblem({ predicate: 'knows', object }), 'backtick', `${JSON.stringify(object)} is refused`);
});
