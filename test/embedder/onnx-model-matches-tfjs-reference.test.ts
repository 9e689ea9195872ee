// The ONNX rebuild of use-lite gives the stock TF.js model's vectors: cosine ≥ 0.9999 on every sentence of a mixed set.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { loadStockModel, stockTokenizer } from './helpers/stock-use-lite.js';

const LONG = Array.from({ length: 60 }, (_, i) => `Sentence ${i} talks about ownership, borrowing and lifetimes in Rust.`).join(' ');

// Kept small: the pure-JS TF.js backend is slow.
const SENTENCES = [
  'hello world',
  'The quick brown fox jumps over the lazy dog.',
  'How do I list the files in a directory, including hidden ones?',
  'git commit -m "Fix the off-by-one error in the parser"',
  'fn main() { let v: Vec<i32> = vec![1, 2, 3]; println!("{:?}", v); }',
  'SELECT id, name FROM users WHERE created_at > NOW() - INTERVAL 7 DAY;',
  '',
  '   ',
  '???',
  ':) :-) :( ://',
  'Ünïcödé façade — naïve café, “quoted” ‘text’ … ﬁne ＦＵＬＬＷＩＤＴＨ',
  '中文文本和日本語のテキスト、한국어 텍스트',
  'Emoji 😀👨‍👩‍👧🚀 and flags 🇫🇷 mixed with words',
  'Ελληνικά και русский текст, עברית, العربية',
  'line one\nline two\ttabbed\r\nline three',
  'a',
  LONG,
  `${'token '.repeat(127)}tail`,
  'Meeting notes: discussed the Q3 roadmap, hiring plans, and the database migration schedule.',
  'The mitochondria is the powerhouse of the cell.',
];

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

t.test('the ONNX provider matches the stock TF.js graph on every sentence', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-use-lite-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const tokens = stockTokenizer();
  t.ok(tokens.encode(LONG).length > 128, 'the long sentence really exceeds the 128-token window');

  const stock = await loadStockModel();
  t.teardown(() => stock.dispose());
  // One stock call per sentence: a batch would pad every row to the longest (128 positions), several times slower.
  // Stock drops trailing empty rows and throws on a batch of only empty texts, so an empty text goes first of two.
  const expected: number[][] = [];
  for (const s of SENTENCES) {
    const rows = await stock.embed(tokens.encode(s).length > 0 ? [s] : [s, 'a']);
    t.equal(rows.length, tokens.encode(s).length > 0 ? 1 : 2, 'stock returns a row per text');
    expected.push(rows[0]!);
  }

  const provider = await createUseLiteProvider({ cacheDir: dir });
  t.teardown(() => provider.close());
  const actual = await provider.embed(SENTENCES);
  t.equal(actual.length, SENTENCES.length);

  let worst = 1;
  let worstDiff = 0;
  SENTENCES.forEach((s, i) => {
    const a = actual[i]!;
    const e = expected[i]!;
    t.equal(a.length, 512, 'vectors are 512 floats');
    const c = cosine(a, e);
    worst = Math.min(worst, c);
    for (let j = 0; j < a.length; j++) worstDiff = Math.max(worstDiff, Math.abs(a[j]! - e[j]!));
    t.ok(c >= 0.9999, `cosine ${c.toFixed(7)} ≥ 0.9999 for ${JSON.stringify(s.slice(0, 40))}`);
  });
  t.comment(`worst cosine ${worst.toFixed(8)}, max abs diff ${worstDiff.toExponential(2)}`);

  // One at a time (the batch padded to each text's own length) gives the same vectors as in the batch.
  for (const i of [0, 6, 16]) {
    const [alone] = await provider.embed([SENTENCES[i]!]);
    t.ok(cosine(alone!, actual[i]!) >= 0.999999, `sentence ${i} embeds the same alone as in a batch`);
  }
});
