// The onnx provider refuses to start on a broken model folder with a stable code, and accepts the common variants.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { makeMiniLmFixture } from './helpers/make-minilm-fixture.js';
import { createOnnxProvider } from '../../../actors/embedder/providers/onnx.js';

async function startError(p: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    const provider = (await p) as { close(): Promise<void> };
    await provider.close();
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error('provider started, expected it to fail');
}

t.test('a missing model folder fails with model_missing naming model.onnx', async (t) => {
  const err = await startError(createOnnxProvider({ modelDir: join(t.testdir(), 'nope') }));
  t.equal(err.code, 'model_missing');
  t.match(err.message, /model\.onnx/);
});

t.test('a model without tokenizer files fails with model_missing naming them', async (t) => {
  const dir = t.testdir();
  await makeMiniLmFixture(dir);
  rmSync(join(dir, 'tokenizer.json'));
  rmSync(join(dir, 'vocab.txt'));
  const err = await startError(createOnnxProvider({ modelDir: dir }));
  t.equal(err.code, 'model_missing');
  t.match(err.message, /tokenizer\.json or vocab\.txt/);
});

t.test('an unreadable model.onnx fails with model_invalid', async (t) => {
  const dir = t.testdir();
  await makeMiniLmFixture(dir);
  writeFileSync(join(dir, 'model.onnx'), 'this is not protobuf');
  const err = await startError(createOnnxProvider({ modelDir: dir }));
  t.equal(err.code, 'model_invalid');
  t.match(err.message, /model\.onnx/);
});

t.test('maxTokens beyond the position table fails at start with model_invalid', async (t) => {
  const dir = t.testdir();
  await makeMiniLmFixture(dir, { maxPositions: 64 });
  const err = await startError(createOnnxProvider({ modelDir: dir, maxTokens: 100 }));
  t.equal(err.code, 'model_invalid');
  t.match(err.message, /lower maxTokens/);
  const ok = await createOnnxProvider({ modelDir: dir, maxTokens: 62 }); // 62 + [CLS] + [SEP] = 64
  await ok.close();
});

t.test('a broken or non-WordPiece tokenizer.json fails with tokenizer_invalid', async (t) => {
  const dir = t.testdir();
  await makeMiniLmFixture(dir);
  writeFileSync(join(dir, 'tokenizer.json'), '{ not json');
  t.equal((await startError(createOnnxProvider({ modelDir: dir }))).code, 'tokenizer_invalid');
  writeFileSync(
    join(dir, 'tokenizer.json'),
    JSON.stringify({ model: { type: 'BPE', vocab: { a: 0 } }, pre_tokenizer: { type: 'ByteLevel' } }),
  );
  const err = await startError(createOnnxProvider({ modelDir: dir }));
  t.equal(err.code, 'tokenizer_invalid');
  t.match(err.message, /BPE/);
});

t.test('vocab.txt alone tokenizes as tokenizer.json does', async (t) => {
  const dir = t.testdir();
  await makeMiniLmFixture(dir);
  const text = 'Café notes: embeddings, unbelievable 中文!';
  const a = await createOnnxProvider({ modelDir: dir });
  const [va] = await a.embed([text]);
  await a.close();
  rmSync(join(dir, 'tokenizer.json'));
  const b = await createOnnxProvider({ modelDir: dir });
  const [vb] = await b.embed([text]);
  await b.close();
  t.same(Array.from(vb!), Array.from(va!));
  t.equal(b.tokens.count(text), a.tokens.count(text));
});

t.test('the HF layout (onnx/model.onnx) and exports without token_type_ids both work', async (t) => {
  const dir = t.testdir();
  await makeMiniLmFixture(dir, { tokenTypeIds: false });
  mkdirSync(join(dir, 'onnx'));
  renameSync(join(dir, 'model.onnx'), join(dir, 'onnx', 'model.onnx'));
  const p = await createOnnxProvider({ modelDir: dir });
  t.teardown(() => p.close());
  const [v] = await p.embed(['hello world']);
  t.equal(v!.length, 32);
  t.ok(Math.abs(Math.hypot(...v!) - 1) < 1e-5);
});
