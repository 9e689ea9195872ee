// Chinese, Japanese and Thai are written without spaces between words and Korean glues particles to its words, so
// FTS5's unicode61 tokenizer makes a whole run one token: 仓库 ("repository") inside 列出你的远程仓库 was never found.
// Such text is also indexed as character pairs in a second FTS table, and queries in those scripts search it.
import t from 'tap';
import { IndexView, type SearchLimits } from '../../actors/gateway/index-view.js';
import { openIndex, SCHEMA_VERSION } from '../../actors/store-writer/schema.js';
import { Board } from '../../supervisors/runtime/board.js';
import { chunk, doc, tempIndex } from '../helpers/index-fixture.js';

const limits: SearchLimits = { defaultK: 3, maxK: 20, minScore: 0, defaultMode: 'bm25', userId: 'default' };

// Notes as a person keeps them, each on its own subject; several share characters with the others on purpose.
const NOTES: Record<string, string> = {
  'zh/git-remote.md': '使用 git remote 命令列出你的远程仓库，添加新的远程地址，或者修改已有远程地址的名称。',
  'zh/backup.md': '每周五晚上把笔记本电脑上的照片备份到家里的移动硬盘，并检查备份是否完整。',
  'zh/tea.md': '我最喜欢的茶是西湖龙井，泡茶的水温大约八十度，第一泡只需要三十秒。',
  'zh/warehouse.md': '公司的库存管理系统每天凌晨同步一次，仓储部门早上查看缺货报告。',
  'ja/meeting.md': '来週の定例会議では、新しいデザインの資料を共有して、予算の見直しについて話し合う予定です。',
  'ja/travel.md': '京都旅行の計画：清水寺を朝早く訪れて、午後は嵐山の竹林を散歩する。',
  'ja/cooking.md': '味噌汁の作り方：昆布とかつお節で出汁を取り、豆腐とわかめを入れて、最後に味噌を溶かす。',
  'ko/garden.md': '올해 봄에는 베란다 텃밭에 상추와 방울토마토를 심었고, 매일 아침 물을 준다.',
  'ko/reading.md': '이번 달 독서 모임에서는 소설을 읽고 주인공의 선택에 대해 토론했다.',
  'th/market.md': 'ตลาดนัดวันเสาร์มีผลไม้สดและขนมไทยหลายชนิด ราคาไม่แพง',
  'en/kiln.md': 'Loaded the kiln before lunch; two pots cracked overnight.',
  'de/cafe.md': 'Das Café am Bahnhof öffnet schon um sieben Uhr.',
};

// [query, the note it means]: words that sit inside longer runs in the notes, never a whole run.
const QUERIES: Array<[string, string]> = [
  ['仓库', 'zh/git-remote.md'], // inside 列出你的远程仓库
  ['远程仓库', 'zh/git-remote.md'],
  ['备份照片', 'zh/backup.md'], // both words, apart and in the other order
  ['龙井', 'zh/tea.md'],
  ['库存', 'zh/warehouse.md'], // shares 库 with 仓库
  ['会議', 'ja/meeting.md'],
  ['予算', 'ja/meeting.md'],
  ['清水寺', 'ja/travel.md'],
  ['味噌', 'ja/cooking.md'],
  ['상추', 'ko/garden.md'], // inside 상추와
  ['독서', 'ko/reading.md'],
  ['ผลไม้', 'th/market.md'], // "fruit", inside ผลไม้สดและขนมไทย
];

function fill(ix: ReturnType<typeof tempIndex>): void {
  for (const [path, text] of Object.entries(NOTES)) ix.writer.upsertDocument(doc(path, [chunk(0, text)]));
}

t.test('a word inside a run of Chinese, Japanese, Korean or Thai finds its note first', async (t) => {
  const ix = tempIndex(t, { dim: null });
  fill(ix);
  const view = new IndexView(ix.file, new Board(), limits);
  t.teardown(() => view.close());
  for (const [query, want] of QUERIES) {
    const got = (await view.search({ query, mode: 'bm25' })).results.map((h) => h.path);
    t.equal(got[0], want, `${query} → ${want} (got ${got.join(', ') || 'nothing'})`);
  }
  const one = (await view.search({ query: '茶', mode: 'bm25' })).results.map((h) => h.path);
  t.equal(one[0], 'zh/tea.md', 'a one-character query matches too');
  const none = (await view.search({ query: '自行车', mode: 'bm25' })).results;
  t.same(none, [], 'a word no note holds finds nothing');
  const en = (await view.search({ query: 'kiln', mode: 'bm25' })).results.map((h) => h.path);
  t.same(en, ['en/kiln.md'], 'English keeps its own table and ranking');
  for (const q of ['Café', 'cafe', 'offnet']) {
    t.same(
      (await view.search({ query: q, mode: 'bm25' })).results.map((h) => h.path),
      ['de/cafe.md'],
      `${q}: diacritics folded`,
    );
  }
  const snippet = (await view.search({ query: '仓库', mode: 'bm25' })).results[0]?.snippet;
  t.equal(snippet, NOTES['zh/git-remote.md'], 'the snippet is the readable text, not character pairs');
});

t.test('a query mixing Chinese with other words finds notes holding only those words too', async (t) => {
  const ix = tempIndex(t, { dim: null });
  fill(ix);
  ix.writer.upsertDocument(doc('en/sqlite.md', [chunk(0, 'SQLite keeps the whole database in one file.')]));
  ix.writer.upsertDocument(doc('zh/sqlite.md', [chunk(0, '用 SQLite 做本地仓库的索引，查询很快。')]));
  const view = new IndexView(ix.file, new Board(), { ...limits, defaultK: 5 });
  t.teardown(() => view.close());
  const got = (await view.search({ query: 'SQLite 仓库', mode: 'bm25' })).results;
  t.equal(got[0]?.path, 'zh/sqlite.md', 'the note holding both words first');
  t.same(got.map((h) => h.path).sort(), ['en/sqlite.md', 'zh/git-remote.md', 'zh/sqlite.md'], 'then the notes holding either');
  t.match(got.find((h) => h.path === 'en/sqlite.md')?.snippet, /SQLite keeps/, 'with a readable snippet');
  t.same(
    (await view.search({ query: 'kiln 龙井', mode: 'bm25' })).results.map((h) => h.path).sort(),
    ['en/kiln.md', 'zh/tea.md'],
    'an English note and a Chinese one, each by its own word',
  );
});

t.test('an index made before the pair table gets it filled when the daemon opens it', async (t) => {
  const ix = tempIndex(t, { dim: null });
  fill(ix);
  // What a schema-1 index looks like: no pair table, no triggers for it (nor the vector log of schema 3).
  ix.db.exec(`
    DROP TRIGGER memory_chunks_fts_bigram_ai; DROP TRIGGER memory_chunks_fts_bigram_ad;
    DROP TRIGGER memory_chunks_fts_bigram_au; DROP TRIGGER memory_documents_title_bigram_au;
    DROP TABLE memory_fts_bigram; DROP TABLE memory_vector_log; PRAGMA user_version = 1;`);
  ix.db.close();
  const db = openIndex(ix.file, { readonly: false });
  t.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  t.equal(db.prepare('SELECT count(*) FROM memory_fts_bigram').pluck().get(), 10, 'every chunk with such text, not the English one');
  db.close();
  const view = new IndexView(ix.file, new Board(), limits);
  t.teardown(() => view.close());
  t.equal((await view.search({ query: '仓库', mode: 'bm25' })).results[0]?.path, 'zh/git-remote.md');
});

t.test('the pair table follows edits, renames and deletes of notes', async (t) => {
  const ix = tempIndex(t, { dim: null });
  fill(ix);
  const view = new IndexView(ix.file, new Board(), limits);
  t.teardown(() => view.close());
  const top = async (q: string) => (await view.search({ query: q, mode: 'bm25' })).results.map((h) => h.path);
  ix.writer.upsertDocument(doc('zh/tea.md', [chunk(0, '今天改喝普洱茶了。')]));
  t.same(await top('龙井'), [], 'the old text is gone');
  t.same(await top('普洱'), ['zh/tea.md'], 'the new text is found');
  ix.writer.upsertDocument(
    doc('en/kiln.md', [chunk(0, 'Loaded the kiln before lunch; two pots cracked overnight.')], { title: '窑炉日志' }),
  );
  t.same(await top('窑炉'), ['en/kiln.md'], 'an English note with a Chinese title is found by its title');
  ix.writer.deleteDocument('vault', 'zh/git-remote.md');
  t.same(await top('仓库'), [], 'a deleted note is not found');
  t.match(ix.writer.reader.consistency(), { pairsMissing: 0, pairsWithoutChunk: 0 }, 'the pair table is in step with the chunks');
});
