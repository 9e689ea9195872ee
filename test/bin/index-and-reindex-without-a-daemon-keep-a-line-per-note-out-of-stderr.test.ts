// A one-shot `memvault index` or `memvault reindex` (no daemon) ran its actor threads at the configured log level
// (info), so stderr got a `memory_ingest` line for every note while the command's own logger held to warnings. Every
// thread of a one-shot run now writes warnings and errors to stderr; the log file keeps the configured level.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeVault } from '../helpers/daemon.js';
import { memvault as cli } from '../helpers/run-cli.js';

const NOTES = 12;

/** The JSON log lines of a text, parsed. */
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; actor: string; event?: string });

t.test('index and reindex: no line per note on stderr, the log file a line per note', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < NOTES; i++) files[`Notes/n${i}.md`] = `# Note ${i}\n\nSomething worth remembering, number ${i}.\n`;
  const v = makeVault(files);
  t.teardown(() => v.cleanup());
  const logFile = path.join(v.dir, '.memvault', 'logs', 'memvault.log');

  const idx = await cli(['index', '--vault', v.dir]);
  t.equal(idx.code, 0, idx.stderr);
  t.match(idx.stdout, new RegExp(`^indexed .*: ${NOTES} files processed`));
  t.same(
    lines(idx.stderr).filter((l) => l.level < 40),
    [],
    'no info line on stderr, from any thread',
  );
  const afterIndex = lines(readFileSync(logFile, 'utf8'));
  t.equal(afterIndex.filter((l) => l.event === 'memory_ingest').length, NOTES, 'the log file has a memory_ingest per note');

  const re = await cli(['reindex', '--vault', v.dir]);
  t.equal(re.code, 0, re.stderr);
  t.match(re.stdout, new RegExp(`^rebuilt the index \\(${NOTES} notes, [\\d.]+ s\\) and swapped it in\\n$`), 'the summary, on stdout');
  t.equal(re.stderr, '', 'nothing on stderr');
  const afterReindex = lines(readFileSync(logFile, 'utf8')).slice(afterIndex.length);
  t.equal(afterReindex.filter((l) => l.event === 'memory_ingest').length, NOTES, 'the rebuild is in the log file');
});
