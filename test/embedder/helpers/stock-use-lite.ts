// The stock use-lite, as a test reference: the package's TF.js graph on @tensorflow/tfjs's pure-JS cpu backend, fed by
// the stock @energetic-ai tokenizer exactly as @energetic-ai/embeddings does (sparse row/position pairs, no truncation).
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { useLitePackage } from '../../../actors/embedder/use-lite/package-files.js';

const require = createRequire(import.meta.url);

export interface StockTokenizer {
  encode(text: string): number[];
}

type Vocabulary = Array<[string, number | null]>;

function readVocab(): Vocabulary {
  return JSON.parse(readFileSync(path.join(useLitePackage().distDir, 'vocab.json'), 'utf8')) as Vocabulary;
}

/**
 * The stock tokenizer, taken from a stock EmbeddingsModel (the Tokenizer class itself is not exported).
 * @energetic-ai/embeddings requires @energetic-ai/core, a bundle with its own TF.js that shares TF.js's global engine
 * and breaks @tensorflow/tfjs in the same process; the tokenizer never touches it, so an empty module stands in.
 */
export function stockTokenizer(): StockTokenizer {
  const embeddingsPath = require.resolve('@energetic-ai/embeddings');
  const corePath = createRequire(embeddingsPath).resolve('@energetic-ai/core');
  if (!require.cache[corePath]) {
    const standIn = new Module(corePath);
    standIn.filename = corePath;
    standIn.loaded = true;
    require.cache[corePath] = standIn;
  }
  const { EmbeddingsModel } = require('@energetic-ai/embeddings') as {
    EmbeddingsModel: new (data: { vocabulary: Vocabulary; model: unknown }) => { tokenizer: StockTokenizer };
  };
  return new EmbeddingsModel({ vocabulary: readVocab(), model: null }).tokenizer;
}

export interface StockModel {
  /** Stock embeddings, one row per non-trailing-empty text (stock drops rows after the last token). */
  embed(texts: string[]): Promise<number[][]>;
  dispose(): void;
}

/** Loads the package's model.json and shards from disk into a tfjs GraphModel on the cpu backend (no network). */
export async function loadStockModel(): Promise<StockModel> {
  await tf.setBackend('cpu');
  await tf.ready();
  const dist = useLitePackage().distDir;
  const json = JSON.parse(readFileSync(path.join(dist, 'model.json'), 'utf8')) as {
    modelTopology: object;
    weightsManifest: Array<{ paths: string[]; weights: tf.io.WeightsManifestEntry[] }>;
  };
  const group = json.weightsManifest[0]!;
  const bytes = Buffer.concat(group.paths.map((p) => readFileSync(path.join(dist, p))));
  const weightData = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const model = await tf.loadGraphModel(tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs: group.weights, weightData }));
  const tokenizer = stockTokenizer();
  return {
    async embed(texts) {
      // As EmbeddingsModel.embed: every token as (row, position), values the ids.
      const encodings = texts.map((t) => tokenizer.encode(t));
      const indices = encodings.flatMap((ids, row) => ids.map((_, pos) => [row, pos]));
      const idx = tf.tensor2d(indices, [indices.length, 2], 'int32');
      const values = tf.tensor1d(encodings.flat(), 'int32');
      const out = (await model.executeAsync({ indices: idx, values })) as tf.Tensor;
      idx.dispose();
      values.dispose();
      const rows = (await out.array()) as number[][];
      out.dispose();
      return rows;
    },
    dispose: () => model.dispose(),
  };
}
