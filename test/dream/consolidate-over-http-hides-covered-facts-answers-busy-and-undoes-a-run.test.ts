// The dream in a real daemon: GET /v1/dream, POST /v1/consolidate against the loopback chat-completions server (the
// model's memory_search answered from the real index, and not written to the recall log), a second request while
// one runs answered `busy` with its id, a covered fact hidden from default search but found with
// filters.include_consolidated, a fact the model left out still found, POST /v1/dream/undo reverting the run (the
// fact back in default search), the dream's metrics, and the same from the command line.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { consolidateDaemon, page } from './helpers/rig.js';
import { factId } from '../../actors/memory/fact-log.js';
import { git } from '../helpers/daemon.js';
import { memvault } from '../helpers/run-cli.js';
import { removeDaemonInfo, writeDaemonInfo } from '../../bin/client.js';

const A = 'The office quokka is called Berta';
const B = 'The espresso machine descaling is every second Friday';
const DAY = '2026-11-20';

t.test('consolidate over HTTP: busy, coverage in search, undo of the run', async (t) => {
  const { llm, v, d } = await consolidateDaemon(t, DAY, [A, B]);
  const logBytes = readFileSync(path.join(v.dir, `Memory/Log/${DAY}.md`));
  const [idA, idB] = [factId(DAY, A), factId(DAY, B)];
  const found = async (q: string, filters: Record<string, unknown> = {}) =>
    (await d.search(q, { mode: 'bm25', filters })).results.map((r: any) => r.fact_id ?? r.path);

  const st = await d.api('GET', '/v1/dream');
  t.equal(st.status, 200);
  t.match(st.body, { running: false, watermark: null, last_run: null, failures: {} });
  t.ok(st.body.pending_days.includes(DAY), 'the log day is pending');
  t.same(await found('quokka'), [idA], 'before: the fact is found');

  await t.test('a second request while a run is under way answers busy with its id', async (t) => {
    const asked = llm.nextChat();
    llm.script({ hang: true });
    const first = d.api('POST', '/v1/consolidate', {});
    await asked;
    const running = await d.api('GET', '/v1/dream');
    t.match(running.body, { running: true, run_id: /^dream-/ });
    const second = await d.api('POST', '/v1/consolidate', { force: true });
    t.equal(second.status, 409);
    t.same(second.body, {
      error: { reason: 'busy', message: `dream run ${running.body.run_id} is under way: one run at a time` },
      run: running.body.run_id,
    });
    const r = await first;
    t.match(r.body, { outcome: 'failed', reason: /^llm_timeout/, counts_as_failure: false });
    t.match((await d.api('GET', '/v1/dream')).body, {
      running: false,
      failures: {},
      last_run: { id: running.body.run_id, outcome: 'failed' },
    });
  });

  let runId = '';
  await t.test('a run covers one fact: hidden from default search, found with include_consolidated; the other stays', async (t) => {
    llm.script(
      { toolCalls: [{ name: 'memory_search', arguments: { query: 'what is the quokka called' } }] },
      {
        toolCalls: [
          {
            name: 'vault_write',
            arguments: { path: 'Memory/Wiki/Office.md', content: page([idA], '# Office\n\nThe office quokka is called Berta.') },
          },
        ],
      },
      { content: 'ok' },
    );
    const r = await d.api('POST', '/v1/consolidate', {});
    t.equal(r.status, 200, JSON.stringify(r.body));
    t.match(r.body, { outcome: 'consolidated', watermark: DAY, pages: ['Memory/Wiki/Office.md'], covered: [idA], uncovered: [idB] });
    runId = r.body.id;
    const searched = llm
      .chats()
      .find((c) => c.body.messages.at(-1)?.tool_call_id === 'call_0' && c.body.messages.length === 3)!
      .body.messages.at(-1);
    t.match(searched, { role: 'tool', content: new RegExp(`${idA}: .*quokka`) }, 'memory_search answered from the real index');
    const recall = readdirSync(path.join(d.cfg.data_dir, 'recall'))
      .map((f) => readFileSync(path.join(d.cfg.data_dir, 'recall', f), 'utf8'))
      .join('');
    t.match(recall, '"query":"quokka"', 'the test’s own searches are in the recall log');
    t.notMatch(recall, 'what is the quokka called', 'the dream’s search is not');
    await d.daemon.whenCaughtUp();
    t.same(await found('quokka'), ['Memory/Wiki/Office.md'], 'the covered fact gives way to its page');
    t.same(
      (await found('quokka', { include_consolidated: true })).sort(),
      ['Memory/Wiki/Office.md', idA].sort(),
      'include_consolidated shows it',
    );
    t.same(await found('espresso descaling'), [idB], 'the fact the model left out is still found');
    t.match((await d.api('GET', '/v1/dream')).body, {
      watermark: DAY,
      last_run: { id: runId, outcome: 'consolidated', pages: 1, covered: 1, uncovered: 1 },
    });
    t.match(git(v.dir, 'log', '-1', '--format=%B'), `Memvault-Agent: dream`);
    const m = await d.api('GET', '/metrics');
    t.match(m.body, /memvault_dream_runs_total\{outcome="consolidated"\} 1/);
    t.match(m.body, /memvault_dream_tool_calls_total\{tool="memory_search",outcome="ok"\} 1/);
    t.match(m.body, /memvault_dream_facts_total\{coverage="uncovered"\} 1/);
  });

  await t.test('undo --run reverts the page and the watermark; the fact is back in default search', async (t) => {
    const bad = await d.api('POST', '/v1/dream/undo', { run: 'nope' });
    t.equal(bad.status, 400);
    const u = await d.api('POST', '/v1/dream/undo', { run: runId });
    t.equal(u.status, 200, JSON.stringify(u.body));
    t.match(u.body, { ok: true, run: runId, commits: [/^[0-9a-f]+$/, /^[0-9a-f]+$/] });
    await d.daemon.whenCaughtUp();
    t.same(await found('quokka'), [idA]);
    t.match((await d.api('GET', '/v1/dream')).body, { watermark: null });
    t.equal((await d.api('POST', '/v1/dream/undo', { run: runId })).status, 404, 'nothing left to undo');
  });
  await t.test('the same from the command line: consolidate, dream status, undo --run', async (t) => {
    writeDaemonInfo(d.cfg, { pid: process.pid, url: d.url, started_at: new Date().toISOString() });
    t.teardown(() => removeDaemonInfo(d.cfg.data_dir, process.pid));
    const conf = ['--config', d.cfg.config_file!, '--vault', v.dir];
    llm.script(
      {
        toolCalls: [
          {
            name: 'vault_write',
            arguments: {
              path: 'Memory/Wiki/Coffee.md',
              content: page([idB], '# Coffee\n\nThe espresso machine descaling is every second Friday.'),
            },
          },
        ],
      },
      { content: 'ok' },
      { content: '# Memory\n\n- [[Memory/Wiki/Coffee]]\n' },
    );
    const c = await memvault(['consolidate', ...conf]);
    t.equal(c.code, 0, c.stderr);
    const id = /^(dream-\S+): consolidated/.exec(c.stdout)?.[1];
    t.ok(id, c.stdout);
    t.match(c.stdout, `undo with: memvault undo --run ${id}`);
    const s = await memvault(['dream', 'status', ...conf]);
    t.match(s.stdout, `watermark: ${DAY}`);
    t.match(s.stdout, `last run: ${id} consolidated ${DAY}..${DAY}: pages 1, covered 1, not covered 1`);
    t.equal(
      readFileSync(path.join(v.dir, 'MEMORY.md'), 'utf8'),
      '# Memory\n\n- [[Memory/Wiki/Coffee]]\n',
      'MEMORY.md regenerated after the run',
    );
    const u = await memvault(['undo', '--run', id!, ...conf]);
    t.equal(u.code, 0, u.stderr);
    t.match(u.stdout, `undid dream run ${id}: 3 commits reverted`);
    t.equal((await memvault(['undo', ...conf])).code, 2, 'undo needs --run');

    llm.script({ status: 500, body: 'model crashed' });
    const f = await memvault(['consolidate', ...conf]);
    t.equal(f.code, 1, 'a failed run exits 1');
    t.match(f.stdout, /: failed .*\n.*\n.*\n {2}llm_server_error: /, 'it says why');
    t.notMatch(f.stdout, 'undo with', 'a run that wrote nothing offers no undo');
    const fs = await memvault(['dream', 'status', ...conf]);
    t.match(fs.stdout, /last run: dream-\S+ failed .*\n {2}llm_server_error: .*answered 500/, 'dream status says why the last run failed');
  });
  t.same(readFileSync(path.join(v.dir, `Memory/Log/${DAY}.md`)), logBytes, 'the day log is byte-identical');
});
