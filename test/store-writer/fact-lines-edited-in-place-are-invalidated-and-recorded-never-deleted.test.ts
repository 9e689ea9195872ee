// knowledge_facts follows the note's text in the note's own upsert: an edited fact line invalidates the old fact and
// records the new one, a moved line keeps its row, a removed or deleted note's facts are invalidated, never deleted,
// and a renamed note keeps its facts with the subject following the title.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { factsAt, timeline } from '../../actors/store-writer/facts-reader.js';
import { parse } from '../chunker/helpers.js';
import { EXAMPLE_VAULT } from '../helpers/daemon.js';
import { chunk, doc, tempIndex, type TestIndex } from '../helpers/index-fixture.js';

const MAYA = readFileSync(path.join(EXAMPLE_VAULT, 'People/Maya Chen.md'), 'utf8');
const DAY = 86_400_000;
const single = new Set(['works_at', 'lives_in', 'has_role', 'has_status']);

function upsert(ix: TestIndex, rel: string, text: string): void {
  const note = parse(text, rel);
  ix.writer.upsertDocument(doc(rel, [chunk(0, text)], { title: note.title, facts: note.facts }));
}

const rows = (ix: TestIndex) =>
  ix.db
    .prepare('SELECT subject, predicate, object, source_path, source_line, recorded_at, invalidated_at FROM knowledge_facts ORDER BY id')
    .all() as Array<{
    subject: string;
    predicate: string;
    object: string;
    source_path: string;
    source_line: number;
    recorded_at: number;
    invalidated_at: number | null;
  }>;

t.test('an edited line invalidates the old fact and records the new one; a moved line keeps its row', async (t) => {
  const ix = tempIndex(t);
  upsert(ix, 'People/Maya Chen.md', MAYA);
  const t0 = ix.clock.now();
  const first = rows(ix);
  t.equal(first.length, 7);
  t.ok(first.every((r) => r.recorded_at === t0 && r.invalidated_at === null && r.subject === 'Maya Chen'));

  ix.clock.advance(DAY);
  const edited = MAYA.replace('- prefers:: written proposals to meetings', '- prefers:: short written proposals').replace(
    '## Facts\n',
    '## Facts\n\nAdded a line above the facts.\n',
  );
  upsert(ix, 'People/Maya Chen.md', edited);
  const after = rows(ix);
  t.equal(after.length, 8, 'nothing deleted: one row more');
  const prefers = after.filter((r) => r.predicate === 'prefers');
  t.same(
    prefers.map((r) => [r.object, r.recorded_at, r.invalidated_at]),
    [
      ['written proposals to meetings', t0, t0 + DAY],
      ['short written proposals', t0 + DAY, null],
    ],
  );
  const worksOn = after.find((r) => r.predicate === 'works_on')!;
  t.equal(worksOn.recorded_at, t0, 'an unchanged fact keeps when it was recorded');
  t.equal(worksOn.source_line, first.find((r) => r.predicate === 'works_on')!.source_line + 2, 'and follows its line');
  t.same(
    timeline(ix.db, 'maya chen')
      .map((r) => r.object)
      .filter((o) => /proposals/.test(o)),
    ['written proposals to meetings', 'short written proposals'],
    'the timeline shows the invalidated fact',
  );

  upsert(ix, 'People/Maya Chen.md', edited); // the same bytes again: nothing changes
  t.same(rows(ix), after);
});

t.test('facts at an instant follow the validity written in the note', async (t) => {
  const ix = tempIndex(t);
  upsert(ix, 'People/Maya Chen.md', MAYA);
  const at = (iso: string) =>
    factsAt(ix.db, { entity: 'Maya Chen', predicate: 'works_at', at: Date.parse(iso), singleValued: single }).map((r) => r.object);
  t.same(at('2025-06-01T00:00:00Z'), ['Rotterdam payments company']);
  t.same(at('2026-03-01T23:59:59Z'), ['Rotterdam payments company']);
  t.same(at('2026-03-02T00:00:00Z'), ['Ledgerline'], 'until is exclusive, from inclusive');
  t.same(at('2026-11-25T00:00:00Z'), ['Ledgerline']);
});

t.test('a renamed note keeps its facts and the subject follows the title; a deleted note invalidates them', async (t) => {
  const ix = tempIndex(t);
  upsert(ix, 'People/Maya Chen.md', MAYA);
  upsert(ix, 'People/Tom Okafor.md', readFileSync(path.join(EXAMPLE_VAULT, 'People/Tom Okafor.md'), 'utf8'));
  const before = rows(ix).filter((r) => r.source_path === 'People/Maya Chen.md');
  t.ok(ix.writer.renameDocument('vault', 'People/Maya Chen.md', 'People/Maya Chen-Smith.md', 'Maya Chen-Smith', 2, 2));
  const moved = rows(ix).filter((r) => r.source_path === 'People/Maya Chen-Smith.md');
  t.same(
    moved.map((r) => [r.predicate, r.object, r.recorded_at, r.invalidated_at]),
    before.map((r) => [r.predicate, r.object, r.recorded_at, r.invalidated_at]),
  );
  t.ok(moved.every((r) => r.subject === 'Maya Chen-Smith'));
  t.same(factsAt(ix.db, { entity: 'Maya Chen', at: ix.clock.now(), singleValued: single }), []);
  t.equal(
    factsAt(ix.db, { entity: 'maya chen-smith', predicate: 'works_on', at: ix.clock.now(), singleValued: single })[0]?.object,
    'Atlas migration',
  );

  ix.clock.advance(DAY);
  ix.writer.deleteDocument('vault', 'People/Maya Chen-Smith.md');
  const gone = rows(ix).filter((r) => r.subject === 'Maya Chen-Smith');
  t.equal(gone.length, 7, 'still there');
  t.ok(
    gone.every((r) => r.invalidated_at === ix.clock.now()),
    'all invalidated at the delete',
  );
  t.same(factsAt(ix.db, { entity: 'Maya Chen-Smith', at: ix.clock.now(), singleValued: single }), []);
  t.equal(timeline(ix.db, 'Maya Chen-Smith').length, 7);
  t.equal(factsAt(ix.db, { entity: 'Tom Okafor', at: ix.clock.now(), singleValued: single }).length, 4, 'other notes untouched');
});

t.test('a wikilink object resolves to its note, and the timeline of that note lists the facts pointing at it', async (t) => {
  const ix = tempIndex(t);
  upsert(ix, 'People/Maya Chen.md', MAYA);
  upsert(ix, 'Projects/Atlas migration.md', '# Atlas migration\n\nThe move.\n');
  const [f] = factsAt(ix.db, { entity: 'Maya Chen', predicate: 'works_on', at: ix.clock.now(), singleValued: single });
  t.equal(f?.objectPath, 'Projects/Atlas migration.md', 'resolved when read, though the note came after the fact');
  t.same(
    timeline(ix.db, 'Atlas migration').map((r) => [r.subject, r.predicate]),
    [['Maya Chen', 'works_on']],
  );
});
