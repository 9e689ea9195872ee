// A live daemon's /metrics: clean for `promtool check metrics`, with the process metrics once and each thread's loop,
// heap and GC labelled by thread, ingest lag per source — and every metric that deploy/grafana/memvault.json (a
// valid dashboard model) and deploy/prometheus/alerts.yml query is there: no panel or alert is dead on arrival.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { call, mcpClient, startToolDaemon } from '../gateway/tools/helpers/tool-daemon.js';
import { DEPLOY, missing, run } from './tools.js';

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Array<{ expr: string; datasource?: { uid: string } }>;
}

/** Metric names a PromQL expression reads (not functions, keywords, label names or values). */
function metricNames(expr: string): string[] {
  const noStrings = expr.replace(/"[^"]*"/g, '""').replace(/\{[^}]*\}/g, '{}');
  const noRanges = noStrings.replace(/\[[^\]]*\]/g, '[]');
  const noGroupings = noRanges.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const words = noGroupings.match(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*(\{|\[|\)|$|\s|[-+*/<>=!,]))/g) ?? [];
  const FUNCS = new Set(['sum', 'max', 'min', 'avg', 'count', 'rate', 'increase', 'histogram_quantile', 'or', 'and', 'unless']);
  return [...new Set(words.filter((w) => !FUNCS.has(w) && !/^\$/.test(w) && !/^\d/.test(w)))];
}

/** The metric family a sample name belongs to in the exposition (histogram parts map to the histogram). */
function family(name: string, families: Set<string>): string | null {
  if (families.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return families.has(base) ? base : null;
}

t.test('a live daemon feeds promtool, the dashboard and the alerts', async (t) => {
  const s = await startToolDaemon({ 'People/Beta.md': '# Beta\n\nBeta runs the billing team.\n' });
  t.teardown(() => s.stop());
  // a write (commit latency), a search (search latency) and a fact (episodes) so the histograms have samples
  const client = await mcpClient(s.d.url, s.d.token, 'metrics');
  t.teardown(() => client.close());
  t.equal(
    (await call(client, 'vault_write', { path: 'Inbox/Heron.md', content: '# Heron\n\nAt dawn.\n', wait_indexed: true })).isError,
    false,
  );
  t.equal((await call(client, 'memory_search', { query: 'heron' })).isError, false);

  // main's GC histogram has a sample only once main has collected: a quiet run may not have yet, so make garbage
  // (2 million short-lived small objects, ~100 MB, fill the young generation several times: at least one scavenge)
  const ring: Array<{ i: number; a: number[] }> = new Array(1024); // stored, so no allocation is optimised away
  for (let i = 0; i < 2_000_000; i++) ring[i % 1024] = { i, a: [i, i + 1] };
  t.comment(`made garbage in main: ${ring.length} live slots rewritten 2,000,000 times`);
  await new Promise<void>((r) => setImmediate(r));
  const res = await fetch(new URL('/metrics', s.d.url));
  t.equal(res.status, 200);
  const text = await res.text();
  const families = new Set([...text.matchAll(/^# TYPE (\S+) \S+$/gm)].map((m) => m[1]!));

  t.test('promtool check metrics finds nothing to complain about', { skip: missing('promtool', 'prometheus') }, async (t) => {
    const r = run('promtool', ['check', 'metrics'], { input: text });
    t.equal(r.status, 0, r.out);
    t.equal(r.out.trim(), '', 'no lint findings');
  });

  t.test('process metrics appear once, thread metrics once per thread', async (t) => {
    t.match(text, /^process_resident_memory_bytes \d+/m, 'RSS, unlabelled');
    t.equal([...text.matchAll(/^process_resident_memory_bytes/gm)].length, 1, 'not repeated per worker');
    t.match(text, /^process_cpu_seconds_total \d/m);
    for (const thread of ['main', 'gateway', 'embedder', 'store', 'git'])
      t.match(text, new RegExp(`^nodejs_eventloop_lag_p99_seconds\\{thread="${thread}"\\} `, 'm'), `event-loop lag of ${thread}`);
    t.match(text, /^nodejs_heap_size_used_bytes\{thread="embedder"\} \d+/m, "the embedder thread's own heap");
    t.match(text, /^nodejs_gc_duration_seconds_count\{[^}]*thread="main"[^}]*\} \d+/m, 'GC of main');
    t.match(text, /^memvault_ingest_lag_seconds\{source="vault"\} 0$/m, 'caught up: no lag');
    t.match(text, /^memvault_ingest_lag_seconds\{source="episodes"\} 0$/m);
    t.match(text, /^memvault_embedder_state\{state="ready"\} 1$/m);
    t.match(text, /^memvault_git_writer_state\{state="ready"\} 1$/m);
    t.match(text, /^memvault_disk_free_bytes\{path="vault"\} [1-9]/m);
    t.match(text, /^memvault_write_duration_seconds_count\{phase="commit"\} [1-9]/m, 'git commit latency observed');
  });

  t.test('the dashboard is a valid model and every panel queries metrics the daemon exports', async (t) => {
    const dash = JSON.parse(readFileSync(path.join(DEPLOY, 'grafana/memvault.json'), 'utf8'));
    t.type(dash.schemaVersion, 'number');
    t.ok(dash.schemaVersion >= 36, 'a current schema version');
    t.match(dash.uid, /^[a-zA-Z0-9_-]{1,40}$/, 'a uid Grafana accepts');
    t.type(dash.title, 'string');
    const vars = dash.templating.list as Array<{ name: string; type: string; query: unknown }>;
    t.ok(
      vars.some((v) => v.name === 'datasource' && v.type === 'datasource' && v.query === 'prometheus'),
      'the datasource is a template variable',
    );
    const panels = dash.panels as Panel[];
    const ids = panels.map((p) => p.id);
    t.equal(new Set(ids).size, ids.length, 'panel ids are unique');
    t.ok(ids.every((id) => Number.isInteger(id) && id > 0));
    const queried = panels.filter((p) => p.type !== 'row');
    t.ok(queried.length >= 15, 'indexing, search, writes, actors, memory, embedder, LLM panels');
    const used = new Set<string>();
    for (const p of queried) {
      t.equal(p.datasource?.uid, '${datasource}', `${p.title}: uses the datasource variable`);
      t.ok((p.targets ?? []).length > 0, `${p.title}: has queries`);
      for (const q of p.targets ?? []) {
        t.equal(q.datasource?.uid, '${datasource}', `${p.title}: its query uses the datasource variable`);
        const names = metricNames(q.expr);
        t.ok(names.length > 0, `${p.title}: ${q.expr} reads a metric`);
        for (const n of names) {
          used.add(n);
          if (n !== 'up') t.ok(family(n, families), `${p.title}: ${n} is in a live /metrics`);
        }
      }
    }
    for (const need of [
      'memvault_search_duration_seconds_bucket',
      'memvault_ingest_lag_seconds',
      'memvault_write_duration_seconds_bucket',
      'memvault_actor_restarts_total',
      'memvault_mailbox_depth',
      'process_resident_memory_bytes',
      'memvault_embed_batch_size_bucket',
      'memvault_episodes_ingested_total',
      'memvault_llm_tokens_total',
      'memvault_llm_cost_usd_total',
    ])
      t.ok(used.has(need), `the dashboard shows ${need}`);
  });

  t.test('every metric an alert reads is exported', async (t) => {
    const alerts = parse(readFileSync(path.join(DEPLOY, 'prometheus/alerts.yml'), 'utf8')) as {
      groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
    };
    for (const r of alerts.groups.flatMap((g) => g.rules))
      for (const n of metricNames(r.expr)) if (n !== 'up') t.ok(family(n, families), `${r.alert}: ${n} is in a live /metrics`);
  });

  t.test('the name extraction sees through PromQL', async (t) => {
    t.same(
      metricNames(
        'histogram_quantile(0.95, sum by (le, mode) (rate(memvault_search_duration_seconds_bucket{instance=~"$instance"}[$__rate_interval])))',
      ),
      ['memvault_search_duration_seconds_bucket'],
    );
    t.same(metricNames('memvault_disk_free_bytes{a="b"} / memvault_disk_size_bytes < 0.05 or up == 0'), [
      'memvault_disk_free_bytes',
      'memvault_disk_size_bytes',
      'up',
    ]);
    t.equal(family('memvault_no_such_metric', families), null, 'a name the daemon does not export is caught');
  });
});
