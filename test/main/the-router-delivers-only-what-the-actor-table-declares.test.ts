// main's router delivers what a sender declared in supervisors/actors.ts and refuses the rest, loudly: an undeclared
// message is dropped with a `route_undeclared` error, an undeclared request is refused `undeclared`.
import pino from 'pino';
import t from 'tap';
import type { AnyMsg } from '../../messages/index.js';
import type { EventLogger } from '../../supervisors/runtime/log.js';
import { Router, type MainNotice, type MainRequest } from '../../main/router.js';

function capture(): { log: EventLogger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) }) as EventLogger;
  log.event = (name, fields = {}, msg) => log.info({ event: name, ...fields }, msg ?? name);
  return { log, lines };
}

function router() {
  const { log, lines } = capture();
  const notices: MainNotice[] = [];
  const answered: MainRequest[] = [];
  const r = new Router({
    handles: {}, // no actor runs: what reaches one is dropped as in a one-shot index
    log,
    notice: (m) => void notices.push(m),
    answer: async (m) => (answered.push(m), { text: 'metrics', contentType: 'text/plain' }),
  });
  const seen: AnyMsg[] = [];
  r.onRouted((m) => void seen.push(m));
  return { r, lines, notices, answered, seen };
}

t.test('declared messages are delivered, undeclared ones dropped with an error naming sender and type', async (t) => {
  const { r, lines, notices, seen } = router();
  r.route({ type: 'main.watcher_state', pending: 3, reconciled: false }, 'watcher');
  t.same(notices, [{ type: 'main.watcher_state', pending: 3, reconciled: false }], 'the watcher may tell main its state');
  r.route({ type: 'store.delete', path: 'a.md' as never }, 'watcher');
  t.equal(seen.length, 2, 'observers see both');

  r.route({ type: 'store.delete', path: 'a.md' as never }, 'gateway');
  r.route({ type: 'main.watcher_state', pending: 0, reconciled: true }, 'chunker');
  t.equal(seen.length, 2, 'nothing undeclared is delivered or observed');
  t.equal(notices.length, 1);
  t.match(
    lines.filter((l) => l['event'] === 'route_undeclared'),
    [
      { level: 50, from: 'gateway', type: 'store.delete', what: 'message' },
      { level: 50, from: 'chunker', type: 'main.watcher_state', what: 'message' },
    ],
  );
});

t.test('requests: main answers its own, an undeclared one is refused, one to an actor not running too', async (t) => {
  const { r, answered } = router();
  t.same(await r.request({ type: 'main.metrics' }, 'gateway', 1_000), { text: 'metrics', contentType: 'text/plain' });
  t.same(answered, [{ type: 'main.metrics' }]);
  const refused = (p: Promise<unknown>): Promise<unknown> =>
    p.then(
      () => 'answered',
      (err: { reason?: string }) => err.reason,
    );
  t.equal(await refused(r.request({ type: 'main.reindex' }, 'watcher', null)), 'undeclared', 'the watcher may not ask for a reindex');
  t.equal(
    await refused(r.request({ type: 'git.undo', req: { agent: 'a', onlyMine: true } }, 'gateway', 1_000)),
    'not_running',
    'writes off: no git writer',
  );
  t.equal(answered.length, 1);
});
