// The meeting poll runs every poll_interval_s. The poll that writes a meeting's note says so at info; a later poll
// that finds the note already written logged three info lines (fired, skipped_idempotent, done) every time — at low
// autonomy a fourth, `meeting_end_detected`, since the note is in Inbox/ — and now logs them at debug only. Read from
// the log lines a real `memvault start` writes on stderr at log level debug. And in the core on the manual clock: a
// poll that skips for the reason the previous one gave logs at debug; a new reason, a write or a failure at info.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import t from 'tap';
import { makeVault, testConfig, within } from '../helpers/daemon.js';
import { FakeLlm } from '../helpers/fake-llm.js';
import { lineMatching } from '../helpers/line-matching.js';
import { BIN } from '../helpers/run-cli.js';
import { coreRig, every, flush, pass } from './helpers/core-rig.js';
import { skillAnswer, skillYaml } from './helpers/skill-daemon.js';

const ics = (start: number, end: number) => {
  const at = (ms: number) =>
    new Date(ms)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//memvault tests//EN',
    'BEGIN:VEVENT',
    'UID:quiet-poll-1@example.test',
    `DTSTAMP:${at(start)}`,
    'SUMMARY:Quiet poll check',
    `DTSTART:${at(start)}`,
    `DTEND:${at(end)}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
};

interface Line {
  level: number;
  event?: string;
  job?: string;
  skill?: string;
}

/** The poll's own lines: the job's, the notes' it writes or skips, its meeting detection. */
const ofPoll = (l: Line) => l.job === 'meeting_note' || l.skill === 'meeting_note' || l.event === 'meeting_end_detected';
const POLL_DONE = /"job":"meeting_note".*"event":"scheduler_job_done"/;

for (const autonomy of ['medium', 'low'] as const) {
  t.test(`autonomy ${autonomy}: the poll that writes logs at info, the next one that finds it written does not`, async (t) => {
    const llm = await FakeLlm.start();
    t.teardown(() => llm.close());
    llm.respond(skillAnswer);
    const now = Date.now();
    const v = makeVault({ 'Calendar/quiet.ics': ics(now - 2 * 3_600_000, now - 3_600_000) });
    t.teardown(() => v.cleanup());
    const yaml = skillYaml(
      llm.url,
      { meeting_note: `{ enabled: true, autonomy: ${autonomy}, poll_interval_s: 10 }` },
      'calendar:\n  ics_path: ./vault/Calendar/quiet.ics\ndream:\n  enabled: false\n',
    ).replace('tz: Europe/Berlin', 'tz: UTC');
    const cfg = testConfig(v.dir, yaml, { logLevel: 'debug' });
    const child = spawn(BIN, ['start', '--config', cfg.config_file!, '--vault', v.dir, '--listen', '127.0.0.1:0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    t.teardown(() => child.kill('SIGKILL'));
    const lines: Line[] = [];
    createInterface({ input: child.stderr }).on('line', (l) => {
      if (l.startsWith('{')) lines.push(JSON.parse(l) as Line);
    });

    await within(lineMatching(child.stderr, POLL_DONE), 60_000, 'the first poll');
    const first = lines.filter(ofPoll);
    t.same(
      first.filter((l) => l.level >= 30).map((l) => l.event),
      ['meeting_end_detected', 'vault_autowrite_written', 'scheduler_job_done'],
      'the poll that writes the note says so at info (that it fired: at debug)',
    );
    t.match(first.at(-1), { level: 30, event: 'scheduler_job_done', outcome: 'written' });

    const seen = lines.length;
    await within(lineMatching(child.stderr, POLL_DONE), 60_000, 'the second poll');
    const second = lines.slice(seen).filter(ofPoll);
    t.match(second.at(-1), { event: 'scheduler_job_done', outcome: 'skipped_idempotent' }, 'the second poll found the note');
    t.same(
      second.filter((l) => l.level >= 30).map((l) => l.event),
      [],
      'a poll that finds nothing new logs nothing at info',
    );
    t.ok(
      second.some((l) => l.level === 20 && l.event === 'vault_autowrite_skipped_idempotent'),
      'it is still there at debug',
    );
    child.kill('SIGTERM');
    await within(once(child, 'exit'), 60_000, 'the daemon to stop');
  });
}

t.test('a poll skipping for the same reason again logs at debug; a new reason, a write or a failure at info', async (t) => {
  const r = coreRig(t, [every('meeting_note', 60)], { start: '2026-11-22T10:00:00Z' });
  const skip = (reason: string) => ({ outcome: 'skipped' as const, path: null, commit: null, reason, results: [] });
  const answers = [
    skip('no_events: no meeting that has ended for the last 24 h'),
    skip('no_events: no meeting that has ended for the last 24 h'),
    { outcome: 'written' as const, path: 'Meetings/x.md', commit: 'abc', reason: null, results: [] },
    { outcome: 'skipped_idempotent' as const, path: 'Meetings/x.md', commit: null, reason: 'already', results: [] },
    skip('not_ours: Meetings/x.md exists and was not written by memvault'),
    skip('not_ours: Meetings/x.md exists and was not written by memvault'),
    { outcome: 'failed' as const, path: null, commit: null, reason: 'llm_bad_output: no JSON', results: [] },
    { outcome: 'failed' as const, path: null, commit: null, reason: 'llm_bad_output: no JSON', results: [] },
  ];
  const levels: string[] = [];
  for (const a of answers) {
    r.answer = a;
    const seen = r.events.length;
    if (levels.length === 0) {
      r.core.start(); // the first poll runs at the start
      await flush();
    } else await pass(r.clock, 60_000, 60_000);
    const done = r.events.slice(seen).filter((e) => e.event === 'scheduler_job_done');
    t.equal(done.length, 1, `one poll: ${a.outcome} ${a.reason}`);
    levels.push(`${a.outcome} ${done[0]?.level ?? 'info'}`);
  }
  t.same(levels, [
    'skipped info',
    'skipped debug',
    'written info',
    'skipped_idempotent debug',
    'skipped info',
    'skipped debug',
    'failed info',
    'failed info',
  ]);
  t.ok(
    r.events.filter((e) => e.event === 'scheduler_job_fired').every((e) => e.level === 'debug'),
    'that a poll fired is said at debug',
  );
});
