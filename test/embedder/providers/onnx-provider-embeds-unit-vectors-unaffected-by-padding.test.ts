// The onnx provider on a generated MiniLM-layout model: unit vectors, mask-aware pooling, truncation, token counts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { makeMiniLmFixture } from './helpers/make-minilm-fixture.js';
import { createOnnxProvider } from '../../../actors/embedder/providers/onnx.js';
import { sha256Hex } from '../../../messages/hash.js';

const WORDS = 'the quick brown fox jumps over the lazy dog and the cat see a bird in the tree by the river at night with'.split(' ');

function maxDiff(a: Float32Array, b: Float32Array): number {
  let m = a.length === b.length ? 0 : Infinity;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

t.test('onnx provider', async (t) => {
  const dir = t.testdir();
  await makeMiniLmFixture(dir);
  const p = await createOnnxProvider({ modelDir: dir, name: 'fixture', maxTokens: 16, intraOpThreads: 1 });
  t.teardown(() => p.close());

  t.test('reports identity from the model file and dim from the model output', async (t) => {
    const sha = sha256Hex(readFileSync(join(dir, 'model.onnx')));
    t.same(p.info, { provider: 'onnx', name: 'fixture', version: sha.slice(0, 12), dim: 32 });
  });

  t.test('returns one unit-length vector of info.dim per text', async (t) => {
    const vecs = await p.embed(['hello world', 'Embeddings of notes', '']);
    t.equal(vecs.length, 3);
    for (const v of vecs) {
      t.equal(v.length, 32);
      t.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5, `norm ${Math.hypot(...v)}`);
    }
    t.ok(maxDiff(vecs[0]!, vecs[1]!) > 1e-2, 'different texts get different vectors');
    t.same(await p.embed([]), []);
  });

  t.test('a text gets the same vector alone and padded in a batch with a longer text', async (t) => {
    const [alone] = await p.embed(['hello world']);
    const long = WORDS.slice(0, 14).join(' ');
    const [padded, longVec] = await p.embed(['hello world', long]);
    t.ok(maxDiff(alone!, padded!) < 1e-5, `max diff ${maxDiff(alone!, padded!)}`);
    const [longAlone] = await p.embed([long]);
    t.ok(maxDiff(longAlone!, longVec!) < 1e-5, 'the longer text is unchanged too');
  });

  t.test('results keep input order across several length-sorted runs', async (t) => {
    const texts = Array.from({ length: 40 }, (_, i) => WORDS.slice(0, 1 + ((i * 7) % 15)).join(' ') + ` ${i}`);
    const together = await p.embed(texts);
    const mismatched: number[] = [];
    for (const [i, text] of texts.entries()) {
      const [single] = await p.embed([text]);
      if (maxDiff(single!, together[i]!) > 1e-5) mismatched.push(i);
    }
    t.same(mismatched, [], 'every text gets its own single-text vector back');
  });

  t.test('truncates to maxTokens WordPiece tokens, not counting [CLS]/[SEP]', async (t) => {
    const long = WORDS.slice(0, 22).join(' ');
    t.equal(p.tokens.maxTokens, 16);
    t.equal(p.tokens.count(long), 22, 'count is the full, untruncated length');
    const [full, first16, first15] = await p.embed([long, WORDS.slice(0, 16).join(' '), WORDS.slice(0, 15).join(' ')]);
    t.ok(maxDiff(full!, first16!) < 1e-5, 'tokens past 16 are ignored');
    t.ok(maxDiff(full!, first15!) > 1e-3, 'the 16th token still counts');
  });

  t.test('count is the WordPiece count the model sees', async (t) => {
    t.equal(p.tokens.count('embeddings, Unbelievable!'), 7); // embed ##dings , un ##believ ##able !
    t.equal(p.tokens.count(''), 0);
  });
});
