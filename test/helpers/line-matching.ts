// Awaiting a line of a child's output (the daemon logs JSON lines on stderr): what a test waits on instead of a sleep.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Resolves with the first line of `stream` that matches `re`; rejects with the last lines seen when it ends first. */
export function lineMatching(stream: Readable, re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const seen: string[] = [];
    const rl = createInterface({ input: stream });
    rl.on('line', (line) => {
      seen.push(line);
      if (re.test(line)) resolve(line);
    });
    rl.once('close', () => reject(new Error(`stderr ended without a line matching ${re}:\n${seen.slice(-20).join('\n')}`)));
  });
}
