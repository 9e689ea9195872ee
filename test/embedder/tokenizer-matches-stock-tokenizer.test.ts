// Our linear-time use-lite tokenizer gives exactly the stock @energetic-ai tokenizer's ids, on real markdown and odd Unicode.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import t from 'tap';
import { loadUseLiteTokenizer } from '../../actors/embedder/use-lite/tokenizer.js';
import { corpusDir, corpusFiles, type CorpusName } from '../helpers/corpora.js';
import { stockTokenizer } from './helpers/stock-use-lite.js';

const stock = stockTokenizer();
const ours = loadUseLiteTokenizer();

function corpusLines(name: CorpusName): string[] {
  return corpusFiles(name).flatMap((f) => readFileSync(path.join(corpusDir(name), f), 'utf8').split('\n'));
}

/** Texts whose ids differ from stock, with both id lists (all texts are checked; a test shows the first few). */
function differences(texts: string[]): Array<{ text: string; expected: number[]; actual: number[] }> {
  const out: Array<{ text: string; expected: number[]; actual: number[] }> = [];
  for (const text of texts) {
    const expected = stock.encode(text);
    const actual = ours.encode(text);
    if (expected.length !== actual.length || expected.some((id, i) => id !== actual[i])) out.push({ text, expected, actual });
  }
  return out;
}

t.test('every line of the tldr pages tokenizes exactly as stock', async (t) => {
  const lines = corpusLines('tldr-common');
  t.ok(lines.length > 30_000, 'the whole corpus is read');
  t.same(differences(lines).slice(0, 3), [], 'tldr-common: every text gives the stock ids');
});

t.test('every line of the Rust book tokenizes exactly as stock', async (t) => {
  t.same(differences(corpusLines('rust-book')).slice(0, 3), [], 'rust-book: every text gives the stock ids');
});

t.test('whole chapters, thousands of tokens long, tokenize exactly as stock', async (t) => {
  const dir = corpusDir('rust-book');
  const chapters = ['ch03-05-control-flow.md', 'ch08-02-strings.md'].map((f) => readFileSync(path.join(dir, f), 'utf8'));
  t.ok(stock.encode(chapters[1]!).length > 3000, 'a chapter is long');
  t.same(differences(chapters).slice(0, 3), [], 'chapters: every text gives the stock ids');
});

t.test('Unicode edge cases tokenize exactly as stock', async (t) => {
  const edgeCases = [
    '',
    ' ',
    '  ',
    '\t',
    '\n',
    '\r\n',
    '▁',
    '▁▁ ▁',
    'a',
    ' a',
    'a ',
    '  leading and trailing  ',
    ':',
    '::',
    ':)',
    ':-)',
    ':(',
    '://',
    '):',
    ':00',
    'http://example.com:8080/a:b', // pieces with null or 0 scores
    '”5',
    '”5”5”', // a piece listed three times in the vocab
    '😀',
    '😀😀😀',
    '👨‍👩‍👧',
    '🇫🇷🇩🇪',
    'a😀b', // astral code points: unknown symbols, merged in runs
    '\uD800',
    '\uDC00x',
    'x\uD83D', // lone surrogates
    'ﬁ ﬂ ﬃ',
    'ＡＢＣ１２３',
    '①②③',
    '㍿',
    'ｶﾀｶﾅ',
    'e\u0301',
    'é',
    'Å', // NFKC folds these
    '\u00A0nbsp\u00A0',
    '\u2003em\u2002space',
    'zero\u200Bwidth',
    'rtl \u202Eevil\u202C', // spaces NFKC turns into ' '
    'İstanbul ß ẞ ǅ',
    'Ελληνικά',
    'русский',
    'עברית',
    'العربية',
    'हिन्दी',
    '中文文本',
    '日本語のテキスト',
    '한국어',
    '\u0000\u0001\u001F\u007F',
    '\uFFFD',
    '\uFEFFbom',
    'x'.repeat(500),
    '-'.repeat(300),
    'ab'.repeat(200),
  ];
  t.same(differences(edgeCases).slice(0, 3), [], 'edge cases: every text gives the stock ids');
  t.same(ours.encode('😀😀 x'), stock.encode('😀😀 x'), 'a run of unknown symbols is one id 0');
  t.ok(ours.encode('😀😀 x').includes(0));
});

t.test('random strings over a tricky alphabet tokenize exactly as stock', async (t) => {
  const unit = fc.constantFrom(
    ...'ab:()-.,  \t\n05”é▁'.split(''),
    '😀',
    '👨‍👩‍👧',
    '\uD800',
    '\uDC00',
    'ﬁ',
    'Ａ',
    '\u00A0',
    '\u200D',
    '中',
    'ß',
    '\u0301',
    ':)',
    ':-)',
    '://',
  );
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 40 }), (s) => {
      const expected = stock.encode(s);
      const actual = ours.encode(s);
      return expected.length === actual.length && expected.every((id, i) => id === actual[i]);
    }),
    { numRuns: 5000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (s) => stock.encode(s).join() === ours.encode(s).join()),
    { numRuns: 3000 },
  );
  t.pass('no counterexample');
});

t.test('the model window is the first 128 ids of the full text, and count is the full length', async (t) => {
  t.equal(ours.maxTokens, 128);
  const texts = [...corpusLines('rust-book').slice(0, 2000), readFileSync(path.join(corpusDir('rust-book'), 'ch08-02-strings.md'), 'utf8')];
  texts.push('word '.repeat(400), ' '.repeat(300) + 'x', '😀 '.repeat(200), 'a'.repeat(5000));
  let wrong = 0;
  for (const text of texts) {
    const full = stock.encode(text);
    if (ours.encodeForModel(text).join() !== full.slice(0, 128).join() || ours.count(text) !== full.length) wrong++;
  }
  t.equal(wrong, 0, `${texts.length} texts: window and count agree with stock`);
});
