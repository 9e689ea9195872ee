// Every answer under the dream's routes names its fields in snake_case, as the rest of the HTTP API does (a script
// reads `tool_calls`, `cited_only`, `counts_as_failure`, never a camelCase key): GET /v1/dream, POST /v1/consolidate
// for a consolidated run (with a refused write and a fact only cited), a failed run and an idle one, and
// POST /v1/dream/undo; `memvault consolidate --json` prints the same object.
import t from 'tap';
import { consolidateDaemon, page } from './helpers/rig.js';
import { factId } from '../../actors/memory/fact-log.js';
import { memvault } from '../helpers/run-cli.js';
import { removeDaemonInfo, writeDaemonInfo } from '../../bin/client.js';

const A = 'The office quokka is called Berta';
const B = 'The espresso machine descaling is every second Friday';
const DAY = '2026-11-20';

/** Every field name in `v`, as `path.key`; the keys of `failures` are batches (data), not field names. */
function fieldNames(v: unknown, at = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => fieldNames(x, `${at}[${i}]`));
  if (v === null || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, x]) => [`${at}.${k}`, ...(k === 'failures' ? [] : fieldNames(x, `${at}.${k}`))]);
}

const notSnake = (v: unknown) => fieldNames(v).filter((p) => !/^[a-z][a-z0-9_]*$/.test(p.slice(p.lastIndexOf('.') + 1)));

t.test('the dream routes answer in snake_case', async (t) => {
  const { llm, v, d } = await consolidateDaemon(t, DAY, [A, B]);
  const [idA, idB] = [factId(DAY, A), factId(DAY, B)];

  llm.script({ status: 500, body: 'model crashed' });
  const failed = await d.api('POST', '/v1/consolidate', {});
  t.match(failed.body, { outcome: 'failed', reason: /^llm_server_error/, counts_as_failure: false });
  t.same(notSnake(failed.body), [], 'a failed run');

  llm.script(
    {
      toolCalls: [
        { name: 'vault_write', arguments: { path: 'USER.md', content: 'x' } },
        {
          name: 'vault_write',
          arguments: { path: 'Memory/Wiki/Office.md', content: page([idA, idB], '# Office\n\nThe office quokka is called Berta.') },
        },
      ],
    },
    { content: 'ok' },
    { content: '# Memory\n\n- [[Memory/Wiki/Office]]\n' },
  );
  const r = await d.api('POST', '/v1/consolidate', {});
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.match(r.body, {
    outcome: 'consolidated',
    tool_calls: 2,
    refused: [{ tool: 'vault_write', reason: 'protected_file' }],
    covered: [idA],
    cited_only: [idB],
    counts_as_failure: false,
  });
  t.same(notSnake(r.body), [], 'a consolidated run');

  const idle = await d.api('POST', '/v1/consolidate', {});
  t.match(idle.body, { outcome: 'idle' });
  t.same(notSnake(idle.body), [], 'an idle answer');

  const st = await d.api('GET', '/v1/dream');
  t.match(st.body, { last_run: { id: r.body.id, outcome: 'consolidated' } });
  t.same(notSnake(st.body), [], 'the status');

  const u = await d.api('POST', '/v1/dream/undo', { run: r.body.id });
  t.equal(u.status, 200, JSON.stringify(u.body));
  t.same(notSnake(u.body), [], 'an undo');

  writeDaemonInfo(d.cfg, { pid: process.pid, url: d.url, started_at: new Date().toISOString() });
  t.teardown(() => removeDaemonInfo(d.cfg.data_dir, process.pid));
  llm.script({ status: 500, body: 'model crashed' });
  const c = await memvault(['consolidate', '--json', '--config', d.cfg.config_file!, '--vault', v.dir]);
  const printed = JSON.parse(c.stdout);
  t.match(printed, { outcome: 'failed', counts_as_failure: false, tool_calls: 0 });
  t.same(notSnake(printed), [], 'memvault consolidate --json');
});
