// The sleep job's cursor through a real daemon and the loopback chat-completions server: NO_NEW_MEMORIES writes
// nothing (no commit, no fact log) but moves the cursor on; an LLM that fails leaves the cursor where it was, so the
// owed run reads the same material again; after a restart the next run reads exactly what came since — nothing
// repeated, nothing skipped; an answer without sections is kept whole as memories.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { localDay } from '../../../actors/memory/fact-log.js';
import { git, makeVault, startDaemon, testConfig, type Running } from '../../helpers/daemon.js';
import { FakeLlm, promptText } from '../../helpers/fake-llm.js';
import { skillYaml } from '../helpers/skill-daemon.js';

t.test('the cursor moves on NO_NEW_MEMORIES, stays on a failure, and survives a restart', async (t) => {
  const llm = await FakeLlm.start();
  t.teardown(() => llm.close());
  const v = makeVault({ 'Projects/Zoo.md': '# Zoo\n\nNotes about the zoo.\n' });
  t.teardown(() => v.cleanup());
  const cfg = testConfig(v.dir, skillYaml(llm.url));
  let d: Running = await startDaemon(cfg);
  t.teardown(() => d.stop());
  await d.daemon.whenCaughtUp();
  const stateFile = path.join(cfg.data_dir, 'scheduler', 'sleep.json');
  const commits = () => Number(git(v.dir, 'rev-list', '--count', 'HEAD').trim());
  const chat = (session: string, id: string, text: string) =>
    d.api('POST', '/v1/episodes', { episodes: [{ type: 'chat', session_id: session, message_id: id, role: 'user', text }] });
  const run = async () => (await d.api('POST', '/v1/jobs/sleep/run', {})).body;
  const lastPrompt = () => promptText(llm.chats().at(-1)!);

  t.equal((await chat('s1', 'm1', 'The zebra enclosure opens at nine.')).status, 200);
  const start = commits();
  llm.script({ content: '```\nNO_NEW_MEMORIES\n```' });
  t.match(await run(), { outcome: 'skipped', reason: /^no_new_memories/, commit: null });
  t.match(lastPrompt(), /The zebra enclosure opens at nine\./);
  t.equal(commits(), start, 'no commit');
  t.notOk(existsSync(path.join(v.dir, 'Memory/Log', `${localDay(Date.now()).date}.md`)), 'nothing in the fact log');
  const afterNone = JSON.parse(readFileSync(stateFile, 'utf8'));
  t.match(afterNone, { version: 1, episodes: { seq: Number, file: /^\d{4}-\d{2}-\d{2}\.jsonl$/ }, lastRun: String });

  t.equal((await chat('s2', 'm1', 'The quokka named Pip likes carrots.')).status, 200);
  llm.respond(() => ({ status: 500 }));
  const down = await run();
  t.match(down, { outcome: 'failed', reason: /^llm_server_error/ });
  t.same(JSON.parse(readFileSync(stateFile, 'utf8')), afterNone, 'a failed run leaves the cursor where it was');
  llm.respond(() => undefined);

  t.equal((await chat('s3', 'm1', 'Feeding time for the otters moved to four.')).status, 200);
  await d.stop();
  d = await startDaemon(cfg);
  await d.daemon.whenCaughtUp();

  llm.script({ content: 'The quokka Pip likes carrots.\nOtter feeding is at four now.\n#zoo #animals' });
  const r = await run();
  t.match(r, { outcome: 'written', commit: /^[0-9a-f]{40}$/ });
  t.match(
    r.results.map((x: { reason: string | null }) => x.reason),
    [null, null, /^memory_rejected: nothing but tags/],
    'a line of tags is no memory',
  );
  const prompt = lastPrompt();
  t.match(prompt, /### Conversation s2 [\s\S]*The quokka named Pip likes carrots\./, 'what the failed run read is read again');
  t.match(prompt, /### Conversation s3 [\s\S]*Feeding time for the otters moved to four\./, 'what came since, across the restart');
  t.notMatch(prompt, /zebra/, 'what an earlier run read is not repeated');
  t.match(prompt, /^Below is what happened since \d{4}-\d{2}-\d{2} \d\d:\d\d:/m, 'since the last run');
  const log = readFileSync(path.join(v.dir, 'Memory/Log', `${localDay(Date.now()).date}.md`), 'utf8');
  t.match(
    log,
    /— memvault-sleep\n- The quokka Pip likes carrots\.\n- Otter feeding is at four now\.\n/,
    'an answer without sections: its lines as memories',
  );
  t.equal(commits(), start + 2, 'one commit per memory');

  const calls = llm.chats().length;
  t.match(await run(), { outcome: 'skipped', reason: /^no_material/ }, 'and nothing is read twice');
  t.equal(llm.chats().length, calls, 'at no LLM cost');
});
