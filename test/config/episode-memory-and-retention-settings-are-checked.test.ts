// The episode, fact log, retention and recall settings: defaults as documented, and refusals naming the path and
// the rule — facts and vault notes are durable, so retention for them is `never` and nothing else.
import t from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';

function load(t: { teardown(fn: () => void): void }, text: string) {
  const file = configFile(t, `vault: /v\n${text}`);
  return () => loadConfig({ file, env: {} });
}

t.test('defaults', async (t) => {
  const c = loadConfig({ vault: '/tmp/v', env: {} });
  t.same(c.retention.days, { chat: 90, task: 365, correction: 365, fact: 'never', vault: 'never' });
  t.equal(c.retention.sweep_every_h, 24);
  t.equal(c.recall.max_mb, 64);
  t.equal(c.memory.folder, 'Memory');
  t.ok(c.writes.allowlist.includes('Memory'), 'the memory folder is in the writes allowlist by default');
  t.same(c.episodes.chat.index_roles, ['user', 'assistant']);
  t.equal(c.episodes.chat.min_chars, 12);
  t.equal(c.episodes.chat.idle_close_s, 1800);
  t.ok(c.episodes.chat.task_verbs.includes('call'));
  t.same(c.episodes.task.reindex_on_status, ['done', 'cancelled']);
});

t.test('bad settings are refused naming their path and the rule', async (t) => {
  const err = t.throws(
    load(
      t,
      [
        'retention:',
        '  days: { chat: 0, fact: 30, vault: 10 }',
        'memory:',
        '  folder: ../Outside',
        'episodes:',
        '  chat:',
        '    index_roles: [narrator]',
        '    task_verbs: [Call]',
      ].join('\n'),
    ),
  ) as unknown as ConfigError;
  t.ok(err instanceof ConfigError);
  const byPath = new Map(err.problems.map((p) => [p.path, p.rule]));
  t.ok(byPath.has('retention.days.chat'), 'days must be at least 1');
  t.match(byPath.get('retention.days.fact'), /durable sources .* are never pruned by age/);
  t.match(byPath.get('retention.days.vault'), /durable sources/);
  t.match(byPath.get('memory.folder'), /plain names/);
  t.ok(byPath.has('episodes.chat.index_roles.0'));
  t.match(byPath.get('episodes.chat.task_verbs.0'), /lower-case/);
  t.same(load(t, 'retention:\n  days: { chat: never }\n')().retention.days.chat, 'never', 'episodes may be kept for good');
});
