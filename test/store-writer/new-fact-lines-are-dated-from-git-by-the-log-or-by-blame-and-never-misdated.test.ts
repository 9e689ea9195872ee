// Git dating of fact lines new to the index (actors/store-writer/recorded-at.ts) on a real repository: a note added
// by one commit and never changed is dated from the repository's log; a renamed, edited or re-added note is blamed
// line by line (blame follows the rename); uncommitted lines, bytes that no longer match what was parsed, and a
// folder outside git keep the index time; facts the index already has are not dated again.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parseNote } from '../../actors/chunker/parse-note.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { GitDating } from '../../actors/store-writer/recorded-at.js';
import { vaultPath } from '../../messages/common.js';
import type { FactForStore } from '../../messages/store.js';
import { git, tempDir, write } from '../git-writer/helpers/vault-repo.js';

const tokens = { maxTokens: 128, count: (s: string) => s.split(/\s+/).filter(Boolean).length };
const opts = { maxTokens: 128, overlapTokens: 16, maxBytes: 2_000_000 };

function commitAt(dir: string, iso: string, msg: string): void {
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=P', '-c', 'user.email=p@example.org', 'commit', '-q', '--date', iso, '-m', msg);
}

function parse(dir: string, rel: string): { facts: FactForStore[]; contentHash: string; title: string } {
  const r = parseNote(vaultPath(rel), readFileSync(path.join(dir, rel)), tokens, opts);
  if (!r.ok) throw new Error(`${rel} did not parse`);
  return { facts: r.note.facts, contentHash: r.note.contentHash, title: r.note.title };
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

t.test('each note new to the index gets the time its fact lines entered git', async (t) => {
  const dir = tempDir(t);
  git(dir, 'init', '-q');
  write(dir, 'Once.md', '# Once\n\n- likes:: tea\n');
  write(dir, 'Edited.md', '# Edited\n\n- likes:: coffee\n');
  write(dir, 'Old name.md', '# Moved\n\n- likes:: chess\n');
  commitAt(dir, '2018-01-02T03:04:05Z', 'first');
  write(dir, 'Edited.md', '# Edited\n\n- likes:: coffee\n- speaks:: Welsh\n');
  git(dir, 'mv', 'Old name.md', 'Moved.md');
  commitAt(dir, '2019-05-06T07:08:09Z', 'second');
  write(dir, 'Changed after parse.md', '# C\n\n- likes:: jazz\n');
  commitAt(dir, '2020-01-01T00:00:00Z', 'third');
  write(dir, 'Edited.md', '# Edited\n\n- likes:: coffee\n- speaks:: Welsh\n- owns:: a bicycle\n'); // not committed

  const db = openIndex(path.join(tempDir(t), 'index.sqlite'), { readonly: false });
  t.teardown(() => db.close());
  const w = new IndexWriter(db, { model: null, chunkerVersion: 'test', now: Date.now });
  const dating = new GitDating(dir);
  const stamp = async (rel: string) => {
    const n = parse(dir, rel);
    const outcome = await dating.stamp(db, 'default', rel, n.facts, n.contentHash);
    return { outcome, n, at: Object.fromEntries(n.facts.map((f) => [f.predicate, iso(f.recordedAt)])) };
  };

  const once = await stamp('Once.md');
  t.equal(once.outcome, 'stamped_from_log');
  t.same(once.at, { likes: '2018-01-02T03:04:05.000Z' });

  const edited = await stamp('Edited.md');
  t.equal(edited.outcome, 'stamped', 'touched by two commits: blamed');
  t.same(edited.at, { likes: '2018-01-02T03:04:05.000Z', speaks: '2019-05-06T07:08:09.000Z', owns: undefined });

  const moved = await stamp('Moved.md');
  t.equal(moved.outcome, 'stamped', 'added by a rename: blamed, which follows it');
  t.same(moved.at, { likes: '2018-01-02T03:04:05.000Z' });

  // the bytes the facts came from are not the file's any more: the log's answer is not used, blame checks each line
  const before = parse(dir, 'Changed after parse.md');
  write(dir, 'Changed after parse.md', '# C\n\nA new first paragraph.\n\n- likes:: jazz\n');
  const stale = await dating.stamp(db, 'default', 'Changed after parse.md', before.facts, before.contentHash);
  t.equal(stale, 'stamped');
  t.equal(before.facts[0]!.recordedAt, undefined, 'line 3 is now prose: left to the index time, not misdated');

  // facts the index has already are not dated again: no git at all
  w.upsertDocument({
    sourceType: 'vault',
    sourceId: 'Once.md',
    title: once.n.title,
    contentHash: once.n.contentHash,
    mtimeMs: 1,
    size: 1,
    metadata: {},
    tags: [],
    sensitive: false,
    chunks: [],
    facts: once.n.facts,
  });
  const row = db.prepare(`SELECT recorded_at FROM knowledge_facts WHERE source_path = 'Once.md'`).pluck().get();
  t.equal(iso(row as number), '2018-01-02T03:04:05.000Z', 'the row keeps the git time');
  const again = await stamp('Once.md');
  t.equal(again.outcome, 'none_new');
  t.same(again.at, { likes: undefined });

  // a folder outside git: the index time
  const plain = tempDir(t);
  write(plain, 'Note.md', '# Note\n\n- likes:: rain\n');
  const n = parse(plain, 'Note.md');
  t.equal(await new GitDating(plain).stamp(db, 'default', 'Note.md', n.facts, n.contentHash), 'not_in_git');
  t.equal(n.facts[0]!.recordedAt, undefined);
});
