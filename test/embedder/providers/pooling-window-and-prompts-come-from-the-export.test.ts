// Pooling (1_Pooling/config.json), the window (sentence_bert_config.json) and query/passage prompts
// (config_sentence_transformers.json, else the model family's) come from the export, so the model runs as its
// authors trained it; what changes vectors changes the model's identity.
import { rmSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { createOnnxProvider } from '../../../actors/embedder/providers/onnx.js';
import type { EmbeddingProvider } from '../../../messages/embedding.js';
import { makeExport, writeExport, type ExportOptions } from './helpers/make-export-fixture.js';

async function provider(t: Test, opts: ExportOptions, extra: { name?: string; queryPrefix?: string } = {}): Promise<EmbeddingProvider> {
  const dir = t.testdir();
  await writeExport(dir, makeExport('wordpiece', opts));
  if (!opts.prompts) rmSync(path.join(dir, 'config_sentence_transformers.json'), { force: true });
  const p = await createOnnxProvider({ modelDir: dir, intraOpThreads: 1, ...extra });
  t.teardown(() => p.close());
  return p;
}

const same = (a: Float32Array | undefined, b: Float32Array | undefined) => Math.max(...a!.map((x, i) => Math.abs(x - b![i]!))) < 1e-6;

t.test('CLS pooling takes the first token state; mean pools over the text', async (t) => {
  const cls = await provider(t, { pooling: 'cls' });
  const mean = await provider(t, { pooling: 'mean' });
  // the fixture's tokens never mix, so [CLS] at position 0 has the same state whatever follows it
  const [c1, c2] = await cls.embed(['hello world', 'a river at night']);
  t.ok(same(c1, c2), 'cls: the [CLS] state alone');
  const [m1, m2] = await mean.embed(['hello world', 'a river at night']);
  t.notOk(same(m1, m2), 'mean: every token counts');
  t.match(cls.info.version, /^[0-9a-f]{12}-cls$/, 'another pooling is another model');
  t.match(mean.info.version, /^[0-9a-f]{12}$/, 'mean pooling without prompts keeps the identity of a hand-laid folder');
});

t.test('the window is max_seq_length less the special tokens', async (t) => {
  t.equal((await provider(t, { maxSeqLength: 64 })).tokens.maxTokens, 62);
});

t.test("the export's prompts go before queries and passages, and the chunker's budget leaves room for them", async (t) => {
  const prompts = { query: 'query: ', passage: 'passage: ' };
  const withPrompts = await provider(t, { prompts });
  const plain = await provider(t, {});
  t.ok(same((await withPrompts.embed(['hello world'], 'query'))[0], (await plain.embed(['query: hello world']))[0]));
  t.ok(same((await withPrompts.embed(['hello world']))[0], (await plain.embed(['passage: hello world']))[0]), 'passages by default');
  t.equal(withPrompts.tokens.maxTokens, plain.tokens.maxTokens - plain.tokens.count('passage: '));
  t.not(withPrompts.info.version, plain.info.version, 'prompts change the vectors, so the identity');
  t.match(withPrompts.info.version, /^[0-9a-f]{12}-p[0-9a-f]{8}$/);
});

t.test("a family's documented prefixes apply when the export declares none; config overrides them", async (t) => {
  const plain = await provider(t, {});
  const e5 = await provider(t, {}, { name: 'intfloat/multilingual-e5-small' });
  t.ok(same((await e5.embed(['hello world'], 'query'))[0], (await plain.embed(['query: hello world']))[0]));
  t.ok(same((await e5.embed(['hello world'], 'passage'))[0], (await plain.embed(['passage: hello world']))[0]));
  const off = await provider(t, {}, { name: 'intfloat/multilingual-e5-small', queryPrefix: '' });
  t.ok(same((await off.embed(['hello world'], 'query'))[0], (await plain.embed(['hello world']))[0]), 'an empty query_prefix turns it off');
});
