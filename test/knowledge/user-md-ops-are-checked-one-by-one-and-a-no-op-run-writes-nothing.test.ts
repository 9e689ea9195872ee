// USER.md curation ops: each validated on its own with a stable reason, applied in order to the sections' top
// regions only; an all-no-op run gives no text to write (the file stays byte-identical); the audit line says it all.
import t from 'tap';
import { auditLine, curate, parseOps } from '../../actors/knowledge/user-md.js';

const USER = [
  'Priya, product lead at Ledgerline.',
  '',
  '## Preferences',
  'Writes in British English.',
  '- Short answers, bullet points.',
  '',
  '### Archive',
  '- Old: long reports',
  '',
  '## Work',
  '- Owns pricing',
  '',
].join('\n');

t.test('applied ops change only the top regions, with a blank line so a bullet never fuses onto a paragraph', async (t) => {
  const r = curate(USER, [
    { op: 'append', heading: 'preferences', line: '- No meetings before 11:00' },
    { op: 'remove', heading: 'Work', match: 'pricing' },
    { op: 'append', heading: 'Work', line: 'Runs the #growth channel and issue #42 triage' },
    { op: 'add_heading', heading: 'Family', lines: ['- Two kids', '', '- A dog called Biscuit'] },
  ]);
  t.same(
    r.results.map((x) => x.outcome),
    ['applied', 'applied', 'applied', 'applied'],
  );
  t.equal(
    r.text,
    [
      'Priya, product lead at Ledgerline.',
      '',
      '## Preferences',
      'Writes in British English.',
      '- Short answers, bullet points.',
      '- No meetings before 11:00',
      '',
      '### Archive',
      '- Old: long reports',
      '',
      '## Work',
      'Runs the #growth channel and issue #42 triage',
      '',
      '## Family',
      '',
      '- Two kids',
      '- A dog called Biscuit',
      '',
    ].join('\n'),
  );
  const para = curate('## A\nA paragraph line.\n', [{ op: 'append', heading: 'A', line: '- a bullet' }]);
  t.equal(para.text, '## A\nA paragraph line.\n\n- a bullet\n', 'a blank line before the bullet');
});

t.test('every reject reason', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ op: 'rename', heading: 'Work' }, 'unknown_op'],
    [{ heading: 'Work' }, 'missing_field'],
    [{ op: 'append', heading: 'Work' }, 'missing_field'],
    [{ op: 'append', heading: 'Hobbies', line: '- x' }, 'heading_missing'],
    [{ op: 'add_heading', heading: 'work', lines: ['- x'] }, 'heading_exists'],
    [{ op: 'append', heading: 'Work', line: '   ' }, 'empty_line'],
    [{ op: 'add_heading', heading: 'New', lines: ['', ' '] }, 'empty_lines'],
    [{ op: 'append', heading: ' ', line: '- x' }, 'empty_heading'],
    [{ op: 'remove', heading: 'Work', match: '' }, 'empty_match'],
    [{ op: 'append', heading: 'Work', line: '# Not a heading here' }, 'line_starts_with_hash'],
    [{ op: 'add_heading', heading: 'New', lines: ['## sneaky'] }, 'line_starts_with_hash'],
    [{ op: 'add_heading', heading: '## New', lines: ['- x'] }, 'heading_starts_with_hash'],
    [{ op: 'remove', heading: 'Preferences', match: 's' }, 'multiple_matches'],
  ];
  const r = curate(
    USER,
    cases.map(([op]) => op),
  );
  t.same(
    r.results.map((x) => x.reason),
    cases.map(([, reason]) => reason),
  );
  t.equal(r.text, null, 'nothing applied: nothing to write');
  const audit = JSON.parse(auditLine('2026-11-25T23:00:00.000Z', r)!);
  t.same(audit.at, '2026-11-25T23:00:00.000Z');
  t.equal(audit.written, false);
  t.same(
    audit.ops.map((o: { reason: string }) => o.reason),
    cases.map(([, reason]) => reason),
  );
  t.same(audit.ops[0], { op: { op: 'rename', heading: 'Work' }, outcome: 'rejected', reason: 'unknown_op' });
});

t.test('no-ops leave the file as it is, even with CRLF and trailing spaces, and write no audit line', async (t) => {
  const crlf = '## Preferences  \r\n- Short answers, bullet points.   \r\n\r\n### Archive\r\n- long reports\r\n';
  const r = curate(crlf, [
    { op: 'append', heading: 'Preferences', line: '* short answers, BULLET points.' },
    { op: 'remove', heading: 'Preferences', match: 'long reports' },
  ]);
  t.same(
    r.results.map((x) => x.outcome),
    ['noop_dup', 'noop_no_match'],
    'the ### region is not editable: no match there',
  );
  t.equal(r.text, null);
  t.equal(auditLine('2026-11-25T23:00:00.000Z', r), null);
  const one = curate(crlf, [{ op: 'append', heading: 'Preferences', line: '- Dark mode' }]);
  t.equal(
    one.text,
    '## Preferences  \r\n- Short answers, bullet points.   \r\n- Dark mode\r\n\r\n### Archive\r\n- long reports\r\n',
    'CRLF kept',
  );
});

t.test('ops come out of a fenced or bare JSON answer', async (t) => {
  t.same(parseOps('Here:\n```json\n{"ops": [{"op": "append"}]}\n```\n'), [{ op: 'append' }]);
  t.same(parseOps('{"ops": []}'), []);
  t.equal(parseOps('I would add a line about tea.'), null);
  t.equal(parseOps('{"op": "append"}'), null);
});
