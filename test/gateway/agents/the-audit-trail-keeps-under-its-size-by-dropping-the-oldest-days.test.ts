// The audit trail: one JSONL file per UTC day, read back by agent and time; over audit.max_mb the oldest day files go
// first, and a day alone over the cap keeps its newer half.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { AuditLog, readAudit } from '../../../actors/gateway/agents/audit.js';

const DAY = 86_400_000;

t.test('day files, oldest dropped first, read back by agent and since', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-audit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let now = Date.parse('2026-11-20T10:00:00Z');
  const log = new AuditLog(dir, 0.01, () => now); // ~10 KB
  const entry = (agent: string, i: number) => ({
    agent,
    kind: 'agent' as const,
    tool: 'vault_read',
    transport: 'http',
    path: `Inbox/${i}.md`,
    outcome: 'ok',
    ms: 1,
  });
  for (let d = 0; d < 4; d++) {
    for (let i = 0; i < 30; i++) await log.record(entry(d % 2 ? 'odd' : 'even', i));
    now += DAY;
  }
  const files = readdirSync(path.join(dir, 'audit')).sort();
  t.ok(files.length < 4, `the oldest days were dropped (${files.join(', ')})`);
  t.equal(files.at(-1), '2026-11-23.jsonl', 'the newest day stays');
  const total = files.reduce((n, f) => n + statSync(path.join(dir, 'audit', f)).size, 0);
  t.ok(total <= 0.01 * 1024 * 1024, `under the cap (${total} bytes)`);
  const odd = await readAudit(dir, { agent: 'odd' });
  t.ok(odd.length > 0 && odd.every((e) => e.agent === 'odd'));
  const since = await readAudit(dir, { since: Date.parse('2026-11-23T00:00:00Z') });
  t.equal(since.length, 30);
  t.ok(since.every((e) => e.t.startsWith('2026-11-23')));

  for (let i = 0; i < 400; i++) await log.record(entry('busy', i));
  const after = readdirSync(path.join(dir, 'audit'));
  t.same(after, ['2026-11-24.jsonl'], 'one day over the cap alone');
  t.ok(statSync(path.join(dir, 'audit', '2026-11-24.jsonl')).size <= 0.01 * 1024 * 1024, 'keeps its newer half');
  const kept = await readAudit(dir, {});
  t.equal(kept.at(-1)!.path, 'Inbox/399.md', 'the newest line is kept');
});
