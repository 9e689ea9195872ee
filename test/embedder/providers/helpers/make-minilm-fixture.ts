// Writes a tiny BERT-layout ONNX model + WordPiece tokenizer (MiniLM folder shape) so tests run real sessions offline.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
type ITensorProto = onnxProto.onnx.ITensorProto;
type IValueInfoProto = onnxProto.onnx.IValueInfoProto;
type INodeProto = onnxProto.onnx.INodeProto;

export interface MiniLmFixtureOptions {
  /** Hidden size. Default 32. */
  dim?: number;
  /** Rows in the position table: the longest window (with [CLS]/[SEP]) the model accepts. Default 512. */
  maxPositions?: number;
  /** PRNG seed for the weights; the same seed writes byte-identical files. Default 42. */
  seed?: number;
  /** Declare the token_type_ids input, as BERT exports do; false mimics exports without it. Default true. */
  tokenTypeIds?: boolean;
}

export interface MiniLmFixture {
  dir: string;
  vocab: string[]; // index = token id
  dim: number;
  maxPositions: number;
}

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const PUNCT = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
const CHARS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
const WORDS = `the of and to in is was for on that with as by it at from his an were are which this be or had
not but have they one you all their has been its who more when there can we she also after new into other
some time two first would what only if may about he her out over most these my our your up no so than them
then do than will just like make made many know day people year way work memory vault note notes vault index
search query embed model vector token tokens word words text chunk chunks file files folder link links tag
tags daily journal project plan design schema agent agents tool tools server client cache store write read
hello world cafe resume naive fiance deja vu quick brown fox jumps lazy dog cat bird fish tree river mountain
city house car road book paper letter music song art film story game team home water fire earth air light
dark night morning evening week month today tomorrow yesterday good bad big small long short high low old
young fast slow hot cold happy sad open close start stop run walk talk think feel see look find give take
keep let begin seem help show hear play move live believe bring happen sit stand lose pay meet include
continue set learn change lead understand watch follow create speak allow add spend grow offer remember love
consider appear buy wait serve die send expect build stay fall cut reach kill remain suggest raise pass sell
require report decide pull un re pre dis over under sub inter trans graph data base line time stamp
red green blue yellow black white number system program question government company group problem fact
hand part place case point week eye life child school state family student country`;
const SUFFIXES = [
  's',
  'es',
  'ed',
  'ing',
  'er',
  'ers',
  'est',
  'ly',
  'ness',
  'ment',
  'able',
  'ible',
  'tion',
  'ation',
  'ding',
  'dings',
  'believ',
  'ful',
  'less',
  'ize',
  'ise',
  'ity',
  'al',
  'ous',
  'ive',
  'y',
];
const CJK = ['中', '文', '日', '本', '人', '大'];

/** The fixture vocabulary: specials, punctuation, single chars (+ ## forms), words, suffix pieces, a few CJK chars. */
export function fixtureVocab(): string[] {
  const words = [...new Set(WORDS.split(/\s+/).filter(Boolean))];
  const all = [...SPECIALS, ...PUNCT, ...CHARS, ...CHARS.map((c) => `##${c}`), ...words, ...SUFFIXES.map((s) => `##${s}`), ...CJK];
  return [...new Set(all)];
}

/** Generates model.onnx, tokenizer.json and vocab.txt in `dir` (created if missing). */
export async function makeMiniLmFixture(dir: string, opts: MiniLmFixtureOptions = {}): Promise<MiniLmFixture> {
  const dim = opts.dim ?? 32;
  const maxPositions = opts.maxPositions ?? 512;
  const vocab = fixtureVocab();
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'model.onnx'), buildModel(vocab.length, dim, maxPositions, opts.seed ?? 42, opts.tokenTypeIds ?? true));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab), null, 2));
  await writeFile(join(dir, 'vocab.txt'), vocab.join('\n') + '\n');
  return { dir, vocab, dim, maxPositions };
}

/** mulberry32: tiny, seedable, good enough for weights no one trains. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * BERT embeddings block without attention: LayerNorm(word[ids] + position[0..s) + type[types]) → MatMul → Tanh.
 * Tokens never mix, so a real token's hidden state is the same whatever padding follows, while padded positions
 * get non-zero states: only a mask-aware mean pooling gives padding-independent vectors.
 */
export function buildModel(vocabSize: number, dim: number, maxPositions: number, seed: number, tokenTypeIds: boolean): Uint8Array {
  const rand = prng(seed);
  const uniform = (n: number, scale: number, offset = 0) => Float32Array.from({ length: n }, () => offset + (rand() * 2 - 1) * scale);
  const F = onnx.TensorProto.DataType.FLOAT;
  const I64 = onnx.TensorProto.DataType.INT64;

  const initializer: ITensorProto[] = [
    floats('word_embeddings', [vocabSize, dim], uniform(vocabSize * dim, 1)),
    floats('position_embeddings', [maxPositions, dim], uniform(maxPositions * dim, 0.5)),
    ...(tokenTypeIds ? [floats('token_type_embeddings', [2, dim], uniform(2 * dim, 0.2))] : []),
    floats('ln_scale', [dim], uniform(dim, 0.5, 1)),
    floats('ln_bias', [dim], uniform(dim, 0.1)),
    floats('dense_w', [dim, dim], uniform(dim * dim, 1 / Math.sqrt(dim))),
    floats('dense_b', [dim], uniform(dim, 0.1)),
    { name: 'zero', dims: [], dataType: I64, int64Data: [0] },
    { name: 'one', dims: [], dataType: I64, int64Data: [1] },
  ];
  const node = (opType: string, input: string[], output: string, attribute: INodeProto['attribute'] = []): INodeProto => ({
    opType,
    input,
    output: [output],
    name: output,
    attribute,
  });
  const nodes: INodeProto[] = [
    node('Shape', ['input_ids'], 'ids_shape'),
    node('Gather', ['ids_shape', 'one'], 'seq_len', [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }]),
    node('Range', ['zero', 'seq_len', 'one'], 'position_ids'),
    node('Gather', ['word_embeddings', 'input_ids'], 'word_emb'),
    node('Gather', ['position_embeddings', 'position_ids'], 'pos_emb'),
    node('Add', ['word_emb', 'pos_emb'], 'emb_wp'),
    ...(tokenTypeIds
      ? [node('Gather', ['token_type_embeddings', 'token_type_ids'], 'type_emb'), node('Add', ['emb_wp', 'type_emb'], 'emb')]
      : [node('Identity', ['emb_wp'], 'emb')]),
    node('LayerNormalization', ['emb', 'ln_scale', 'ln_bias'], 'emb_ln', [
      { name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 },
      { name: 'epsilon', type: onnx.AttributeProto.AttributeType.FLOAT, f: 1e-12 },
    ]),
    node('MatMul', ['emb_ln', 'dense_w'], 'dense'),
    node('Add', ['dense', 'dense_b'], 'dense_biased'),
    node('Tanh', ['dense_biased'], 'last_hidden_state'),
  ];
  const ids = (name: string) => valueInfo(name, I64, ['batch_size', 'sequence_length']);
  const graph = {
    name: 'minilm-fixture',
    node: nodes,
    initializer,
    input: [ids('input_ids'), ids('attention_mask'), ...(tokenTypeIds ? [ids('token_type_ids')] : [])],
    output: [valueInfo('last_hidden_state', F, ['batch_size', 'sequence_length', dim])],
  };
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }], // 17: first opset with LayerNormalization
    producerName: 'memvault make-minilm-fixture',
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

function floats(name: string, dims: number[], values: Float32Array): ITensorProto {
  // raw_data is little-endian by the ONNX spec, as is every platform Node ships on.
  return { name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: new Uint8Array(values.buffer) };
}

function valueInfo(name: string, elemType: number, dims: Array<number | string>): IValueInfoProto {
  const dim = dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

/** tokenizer.json in the shape HF tokenizers writes for all-MiniLM-L6-v2 (the parts memvault reads). */
export function tokenizerJson(vocab: string[]): unknown {
  const id = (t: string) => vocab.indexOf(t);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((t) => ({
      id: id(t),
      content: t,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}
