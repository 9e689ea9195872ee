// A cron expression that parses but names no real date (31 February) is refused at load, naming its path, like a
// malformed one: its job would otherwise show `scheduled` with no next run and never draft anything. A rare date
// (29 February) still fires, so it stays allowed.
import t from 'tap';
import { ConfigError, loadConfig } from '../../config/load.js';
import { configFile } from '../helpers/config-file.js';

const load = (t: { teardown(fn: () => void): void }, yaml: string) => () =>
  loadConfig({ file: configFile(t, `vault: /v\n${yaml}`), env: {} });

t.test('31 February and 31 April never fire: refused with the path and why', async (t) => {
  const err = t.throws(
    load(
      t,
      'skills:\n  daily_reflection: { cron: "0 0 31 2 *" }\n  weekly_review: { cron: "30 8 31 4 *" }\ncuration:\n  schedule: "0 0 30 2 *"\n',
    ),
  ) as unknown as ConfigError;
  t.ok(err instanceof ConfigError);
  const byPath = new Map(err.problems.map((p) => [p.path, p.rule]));
  t.match(byPath.get('skills.daily_reflection.cron'), /^"0 0 31 2 \*" never fires: no date matches its day and month/);
  t.match(byPath.get('skills.weekly_review.cron'), /never fires/);
  t.match(byPath.get('curation.schedule'), /never fires/);
});

t.test('a date that comes round rarely (29 February) and a day-or-weekday pattern are kept', async (t) => {
  const c = load(t, 'skills:\n  daily_reflection: { cron: "0 0 29 2 *" }\n  weekly_review: { cron: "0 0 31 2 1" }\n')();
  t.equal(c.skills.daily_reflection.cron, '0 0 29 2 *');
  t.equal(c.skills.weekly_review.cron, '0 0 31 2 1', 'croner reads day and weekday as either: every Monday in February');
});
