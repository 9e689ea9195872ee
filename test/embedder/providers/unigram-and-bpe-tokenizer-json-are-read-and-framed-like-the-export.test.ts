// tokenizer.json kinds beyond BERT WordPiece — SentencePiece/Unigram (XLM-R: multilingual-e5, paraphrase-multilingual)
// and byte-level BPE (RoBERTa) — tokenize through @huggingface/tokenizers, framed by the export's own post-processor.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { loadTokenizer } from '../../../actors/embedder/providers/tokenizer-files.js';
import { createOnnxProvider } from '../../../actors/embedder/providers/onnx.js';
import { makeExport, writeExport, type TokenizerKind } from './helpers/make-export-fixture.js';

async function folder(t: Test, kind: TokenizerKind) {
  const dir = t.testdir();
  const files = makeExport(kind);
  await writeExport(dir, files);
  const json = JSON.parse(files['tokenizer.json']!.toString()) as { model: { vocab: unknown } };
  const vocab =
    kind === 'unigram'
      ? new Map((json.model.vocab as Array<[string, number]>).map(([p], i) => [p, i]))
      : new Map(Object.entries(json.model.vocab as Record<string, number>));
  const ids = (tokens: string[]) => tokens.map((tok) => vocab.get(tok) ?? -1);
  return { dir, ids };
}

t.test('a SentencePiece/Unigram tokenizer.json splits into pieces and frames with <s> … </s>', async (t) => {
  const { dir, ids } = await folder(t, 'unigram');
  const r = loadTokenizer(dir);
  if (!r.ok) throw new Error(r.message);
  const tok = r.tokenizer;
  t.equal(tok.kind, 'unigram');
  t.same(tok.prefix, ids(['<s>']));
  t.same(tok.suffix, ids(['</s>']));
  t.same(tok.encode('the quick brown fox'), ids(['▁the', '▁quick', '▁brown', '▁fox']), 'whole words are single pieces');
  t.same(tok.encode('foxes jumped'), ids(['▁fox', 'es', '▁', 'j', 'u', 'm', 'p', 'ed']), 'the best-scoring split of unknown words');
  t.same(tok.encode('the   river'), ids(['▁the', '▁river']), 'runs of spaces fold, as its normalizer says');
  t.same(tok.encode('日本'), ids(['▁', '日', '本']));
});

t.test('a byte-level BPE tokenizer.json merges words and frames with <s> … </s>', async (t) => {
  const { dir, ids } = await folder(t, 'bpe');
  const r = loadTokenizer(dir);
  if (!r.ok) throw new Error(r.message);
  const tok = r.tokenizer;
  t.equal(tok.kind, 'bpe');
  t.same(tok.prefix, ids(['<s>']));
  t.same(tok.suffix, ids(['</s>']));
  t.same(tok.encode('the quick brown fox'), ids(['the', 'Ġquick', 'Ġbrown', 'Ġfox']));
  t.same(tok.encode('foxes jumped'), ids(['fox', 'e', 's', 'Ġjump', 'e', 'd']), 'merges as far as the merges go');
  t.same(tok.encode('café'), ids(['caf', 'Ã', '©']), 'any text has bytes to fall back to');
});

t.test('both run through the onnx provider with their own window, counting tokens as they embed', async (t) => {
  for (const kind of ['unigram', 'bpe'] as const) {
    const { dir } = await folder(t, kind);
    const p = await createOnnxProvider({ modelDir: dir, intraOpThreads: 1 });
    t.teardown(() => p.close());
    t.equal(p.tokens.maxTokens, 126, `${kind}: max_seq_length 128 less <s> and </s>`);
    t.equal(p.tokens.count('the quick brown fox'), 4);
    const [a, b] = await p.embed(['the quick brown fox', 'a river at night']);
    t.equal(a?.length, 32);
    t.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-5);
    t.notSame(Array.from(a!), Array.from(b!));
  }
});

t.test('a tokenizer.json of an unsupported kind fails with tokenizer_invalid naming it', async (t) => {
  const { dir } = await folder(t, 'bpe');
  writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify({ model: { type: 'WordLevel', vocab: { a: 0 } }, added_tokens: [] }));
  const r = loadTokenizer(dir);
  t.equal(r.ok, false);
  if (!r.ok) {
    t.equal(r.reason, 'tokenizer_invalid');
    t.match(r.message, /WordLevel/);
  }
});
