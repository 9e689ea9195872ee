// A process that records write intents in the git writer's journal as fast as it can, two writers at once, and says
// on stdout which are durable ("r N") and which it has cleared ("c N"), until it is killed: the journal's kill test.
import { writeSync } from 'node:fs';
import { IntentJournal, type Intent } from '../../actors/git-writer/intent-journal.js';

const file = process.argv[2];
if (!file) throw new Error('usage: intent-journal-child <journal file>');
const journal = new IntentJournal(file);
const IN_FLIGHT = 6;
let next = 0;

async function writer(): Promise<never> {
  const mine: Intent[] = [];
  for (;;) {
    const n = next++;
    const intent: Intent = { op: 'write', agent: `agent-${n % 3}`, paths: [`Inbox/n${n}.md`], hashes: [`h${n}`] };
    await journal.record(intent);
    writeSync(1, `r ${n}\n`);
    mine.push(intent);
    if (mine.length > IN_FLIGHT) {
      const done = mine.shift()!;
      await journal.clear(done);
      writeSync(1, `c ${done.paths[0]!.slice('Inbox/n'.length, -'.md'.length)}\n`);
    }
  }
}

void Promise.all([writer(), writer()]);
