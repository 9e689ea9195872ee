// The hand-written BERT tokenizer gives the pieces HF's BertNormalizer + BertPreTokenizer + WordPiece would.
import t from 'tap';
import { fixtureVocab } from './helpers/make-minilm-fixture.js';
import { BertTokenizer, type BertTokenizerSpec } from '../../../actors/embedder/providers/wordpiece.js';

const vocabList = fixtureVocab();
const spec: BertTokenizerSpec = {
  vocab: new Map(vocabList.map((tok, i) => [tok, i])),
  normalizer: { cleanText: true, handleChineseChars: true, stripAccents: true, lowercase: true },
  unkToken: '[UNK]',
  continuingSubwordPrefix: '##',
  maxInputCharsPerWord: 100,
  clsToken: '[CLS]',
  sepToken: '[SEP]',
  padToken: '[PAD]',
};
const tok = new BertTokenizer(spec);

t.test('lowercases and splits punctuation into its own tokens', async (t) => {
  t.same(tok.tokenize('Hello, World!'), ['hello', ',', 'world', '!']);
  t.same(tok.tokenize('tags:daily/notes'), ['tags', ':', 'daily', '/', 'notes']);
  t.same(tok.tokenize('$5+3'), ['$', '5', '+', '3'], 'ASCII symbols count as punctuation');
});

t.test('strips accents through NFD', async (t) => {
  t.same(tok.tokenize('Café Résumé naïve'), ['cafe', 'resume', 'naive']);
});

t.test('splits words into ## continuation pieces, longest match first', async (t) => {
  t.same(tok.tokenize('embeddings'), ['embed', '##dings']);
  t.same(tok.tokenize('Unbelievable'), ['un', '##believ', '##able']);
  t.same(tok.tokenize('zq'), ['z', '##q'], 'falls back to single characters');
});

t.test('splits CJK ideographs into one token each', async (t) => {
  t.same(tok.tokenize('中文text'), ['中', '文', 'text']);
});

t.test('a word with an unmatched piece becomes one [UNK]', async (t) => {
  t.same(tok.tokenize('snow☃ fox'), ['[UNK]', 'fox']);
  t.same(tok.tokenize('☃'), ['[UNK]']);
});

t.test('a word longer than 100 characters becomes [UNK]', async (t) => {
  t.same(tok.tokenize('a'.repeat(101)), ['[UNK]']);
  t.equal(tok.tokenize('a'.repeat(100)).length, 100, 'exactly 100 is still split: a ##a ##a …');
});

t.test('drops control and format characters and treats tabs and newlines as spaces', async (t) => {
  t.same(tok.tokenize('hello\u0000\tworld\u200b\nfox'), ['hello', 'world', 'fox']);
});

t.test('encode gives vocabulary ids without [CLS]/[SEP]', async (t) => {
  const ids = tok.encode('Hello ☃');
  t.same(ids, [vocabList.indexOf('hello'), vocabList.indexOf('[UNK]')]);
  t.equal(tok.encode('Hello ☃').join(), ids.join(), 'the word cache returns the same ids');
  t.equal(tok.clsId, vocabList.indexOf('[CLS]'));
  t.equal(tok.sepId, vocabList.indexOf('[SEP]'));
});
