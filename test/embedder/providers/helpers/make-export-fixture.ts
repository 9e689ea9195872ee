// Tiny sentence-transformers exports in a hub repository's layout, one per tokenizer kind (BERT WordPiece, XLM-R-style
// SentencePiece/Unigram, RoBERTa-style byte-level BPE), generated so tests and benches run real sessions offline.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildModel, fixtureVocab, tokenizerJson as wordPieceJson } from './make-minilm-fixture.js';

export type TokenizerKind = 'wordpiece' | 'unigram' | 'bpe';

export interface ExportOptions {
  /** Hidden size. Default 32. */
  dim?: number;
  /** PRNG seed for the weights. Default 42. */
  seed?: number;
  /** Position table rows. Default 512. */
  maxPositions?: number;
  /** 1_Pooling/config.json's mode. Default mean. */
  pooling?: 'mean' | 'cls';
  /** config_sentence_transformers.json prompts. Default none. */
  prompts?: { query: string; passage: string };
  /** sentence_bert_config.json max_seq_length. Default 128. */
  maxSeqLength?: number;
}

/** A repository's files by path, as a hub serves them. */
export type RepoFiles = Record<string, Buffer>;

const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v, null, 2));

/** Lower-case words of the shared fixture vocabulary (the WordPiece one), reused by the other two kinds. */
function words(): string[] {
  return fixtureVocab().filter((t) => /^[a-z]{2,}$/.test(t));
}

/** The files of one export: onnx/model.onnx, tokenizer files, config.json and the sentence-transformers configs. */
export function makeExport(kind: TokenizerKind, opts: ExportOptions = {}): RepoFiles {
  const dim = opts.dim ?? 32;
  const maxPositions = opts.maxPositions ?? 512;
  const tok = kind === 'wordpiece' ? wordPiece() : kind === 'unigram' ? unigram() : bpe();
  const files: RepoFiles = {
    'config.json': json({ model_type: tok.modelType, hidden_size: dim, max_position_embeddings: maxPositions, vocab_size: tok.vocabSize }),
    'tokenizer.json': json(tok.tokenizer),
    'tokenizer_config.json': json({ model_max_length: 512, ...tok.config }),
    'modules.json': json([
      { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
      { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
      { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
    ]),
    '1_Pooling/config.json': json({
      word_embedding_dimension: dim,
      pooling_mode_cls_token: opts.pooling === 'cls',
      pooling_mode_mean_tokens: opts.pooling !== 'cls',
      pooling_mode_max_tokens: false,
      pooling_mode_mean_sqrt_len_tokens: false,
    }),
    'sentence_bert_config.json': json({ max_seq_length: opts.maxSeqLength ?? 128, do_lower_case: false }),
    'onnx/model.onnx': Buffer.from(buildModel(tok.vocabSize, dim, maxPositions, opts.seed ?? 42, kind === 'wordpiece')),
  };
  if (opts.prompts) files['config_sentence_transformers.json'] = json({ prompts: opts.prompts, default_prompt_name: null });
  if (tok.vocabTxt) files['vocab.txt'] = Buffer.from(tok.vocabTxt);
  return files;
}

/** Writes `files` under `dir` (a hand-laid folder, as the onnx provider's model_dir). */
export async function writeExport(dir: string, files: RepoFiles): Promise<void> {
  for (const [rel, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), bytes);
  }
}

interface Tok {
  tokenizer: unknown;
  config: Record<string, unknown>;
  vocabSize: number;
  modelType: string;
  vocabTxt?: string;
}

function wordPiece(): Tok {
  const vocab = fixtureVocab();
  return {
    tokenizer: wordPieceJson(vocab),
    config: { do_lower_case: true, cls_token: '[CLS]', sep_token: '[SEP]' },
    vocabSize: vocab.length,
    modelType: 'bert',
    vocabTxt: vocab.join('\n') + '\n',
  };
}

const added = (tokens: string[]) =>
  tokens.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));

/** XLM-R's shape (multilingual-e5, paraphrase-multilingual): Precompiled normalizer, Metaspace, Unigram, <s> … </s>. */
function unigram(): Tok {
  const specials = ['<s>', '<pad>', '</s>', '<unk>'];
  const pieces: Array<[string, number]> = specials.map((s) => [s, 0]);
  pieces.push(['▁', -4]);
  for (const w of words()) pieces.push([`▁${w}`, -3 - w.length / 10]);
  for (const s of ['s', 'es', 'ed', 'ing', 'er', 'ly', 'ness', 'ment', 'tion']) pieces.push([s, -5]);
  for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;!?\'"()-') pieces.push([c, -8]);
  for (const c of ['中', '文', '日', '本', '人', '大', 'é']) pieces.push([c, -6]);
  const seen = new Set<string>();
  const vocab = pieces.filter(([p]) => !seen.has(p) && seen.add(p));
  return {
    tokenizer: {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: added(specials),
      normalizer: {
        type: 'Sequence',
        normalizers: [
          { type: 'Precompiled', precompiled_charsmap: null },
          { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' },
        ],
      },
      pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
      post_processor: {
        type: 'TemplateProcessing',
        single: [
          { SpecialToken: { id: '<s>', type_id: 0 } },
          { Sequence: { id: 'A', type_id: 0 } },
          { SpecialToken: { id: '</s>', type_id: 0 } },
        ],
        pair: [
          { SpecialToken: { id: '<s>', type_id: 0 } },
          { Sequence: { id: 'A', type_id: 0 } },
          { SpecialToken: { id: '</s>', type_id: 0 } },
          { SpecialToken: { id: '</s>', type_id: 0 } },
          { Sequence: { id: 'B', type_id: 0 } },
          { SpecialToken: { id: '</s>', type_id: 0 } },
        ],
        special_tokens: {
          '<s>': { id: '<s>', ids: [0], tokens: ['<s>'] },
          '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] },
        },
      },
      decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
      model: { type: 'Unigram', unk_id: 3, vocab, byte_fallback: false },
    },
    config: { bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', pad_token: '<pad>' },
    vocabSize: vocab.length,
    modelType: 'xlm-roberta',
  };
}

/** GPT-2's byte → printable character table, which byte-level BPE vocabularies are written in. */
function bytesToUnicode(): Map<number, string> {
  const keep = [...range(33, 126), ...range(161, 172), ...range(174, 255)];
  const map = new Map<number, string>();
  let n = 0;
  for (let b = 0; b < 256; b++) map.set(b, String.fromCodePoint(keep.includes(b) ? b : 256 + n++));
  return map;
}

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/** RoBERTa's shape (all-distilroberta-v1): ByteLevel pre-tokenizer and decoder, BPE with merges, <s> … </s>. */
function bpe(): Tok {
  const specials = ['<s>', '<pad>', '</s>', '<unk>'];
  const vocab = new Map<string, number>(specials.map((s, i) => [s, i]));
  const byteChar = bytesToUnicode();
  for (let b = 0; b < 256; b++) vocab.set(byteChar.get(b)!, vocab.size);
  const merges: string[] = [];
  // Words after a space (Ġ…) first: their left-to-right chains outrank any merge inside a bare word, so a word
  // after a space always becomes one token.
  for (const w of [...words().map((x) => `Ġ${x}`), ...words()]) {
    let left = w[0]!;
    for (const ch of w.slice(1)) {
      const merged = left + ch;
      if (!vocab.has(merged)) {
        merges.push(`${left} ${ch}`);
        vocab.set(merged, vocab.size);
      }
      left = merged;
    }
  }
  return {
    tokenizer: {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: added(specials),
      normalizer: null,
      pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
      post_processor: { type: 'RobertaProcessing', sep: ['</s>', 2], cls: ['<s>', 0], trim_offsets: true, add_prefix_space: false },
      decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
      model: {
        type: 'BPE',
        dropout: null,
        unk_token: null,
        continuing_subword_prefix: '',
        end_of_word_suffix: '',
        fuse_unk: false,
        byte_fallback: false,
        vocab: Object.fromEntries(vocab),
        merges,
      },
    },
    config: { bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', pad_token: '<pad>', add_prefix_space: false },
    vocabSize: vocab.size,
    modelType: 'roberta',
  };
}
