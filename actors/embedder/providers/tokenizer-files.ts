// Loads a model folder's tokenizer: tokenizer.json (BERT WordPiece by our own code, Unigram/BPE by tokenizer-json.ts)
// or vocab.txt as fallback.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { fail, type Result } from '../../../messages/common.js';
import { hfTokenizer, type TextTokenizer } from './tokenizer-json.js';
import { BertTokenizer, type BertNormalizerOptions, type BertTokenizerSpec } from './wordpiece.js';

export type { TextTokenizer };
export type TokenizerLoad = Result<{ tokenizer: TextTokenizer; file: string }, 'model_missing' | 'tokenizer_invalid'>;

const Named = z.object({ type: z.string() }).passthrough();
const TokenizerJson = z.object({
  normalizer: Named.extend({
    clean_text: z.boolean().optional(),
    handle_chinese_chars: z.boolean().optional(),
    strip_accents: z.boolean().nullable().optional(),
    lowercase: z.boolean().optional(),
  })
    .nullable()
    .optional(),
  pre_tokenizer: Named.nullable().optional(),
  post_processor: Named.nullable().optional(),
  padding: z.object({ pad_token: z.string().optional() }).passthrough().nullable().optional(),
  model: z.object({
    type: z.string().optional(), // absent in some older exports; WordPiece is then implied by the fields
    unk_token: z.string().default('[UNK]'),
    continuing_subword_prefix: z.string().default('##'),
    max_input_chars_per_word: z.number().int().positive().default(100),
    vocab: z.record(z.number().int().nonnegative()),
  }),
});

const TokenizerConfig = z
  .object({
    do_lower_case: z.boolean().optional(),
    strip_accents: z.boolean().nullable().optional(),
    tokenize_chinese_chars: z.boolean().optional(),
  })
  .passthrough();

/** Reads `tokenizer.json`, else `vocab.txt` (+ `tokenizer_config.json` for casing), from `dir`. */
export function loadTokenizer(dir: string): TokenizerLoad {
  const jsonPath = join(dir, 'tokenizer.json');
  const vocabPath = join(dir, 'vocab.txt');
  const configPath = join(dir, 'tokenizer_config.json');
  if (existsSync(jsonPath)) return fromTokenizerJson(jsonPath, configPath);
  if (existsSync(vocabPath)) return fromVocabTxt(vocabPath, configPath);
  return fail('model_missing', `no tokenizer.json or vocab.txt in ${dir}: copy them from the model's repository next to model.onnx`);
}

/** BERT's own pipeline (our WordPiece, with its word cache); anything else goes to @huggingface/tokenizers. */
function isBertWordPiece(raw: Record<string, unknown>): boolean {
  const type = (v: unknown) => (v && typeof v === 'object' ? (v as { type?: unknown }).type : undefined);
  const model = type(raw['model']);
  const normalizer = raw['normalizer'] ? type(raw['normalizer']) : 'BertNormalizer';
  return (
    (model === undefined || model === 'WordPiece') && normalizer === 'BertNormalizer' && type(raw['pre_tokenizer']) === 'BertPreTokenizer'
  );
}

function fromTokenizerJson(file: string, configPath: string): TokenizerLoad {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return fail('tokenizer_invalid', `${file} is not valid JSON (${(err as Error).message}): re-download it`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('tokenizer_invalid', `${file} is not a tokenizer.json object`);
  if (!isBertWordPiece(raw as Record<string, unknown>)) {
    let config: Record<string, unknown> = {};
    if (existsSync(configPath)) {
      try {
        config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
      } catch (err) {
        return fail('tokenizer_invalid', `${configPath} is unreadable (${(err as Error).message}): fix or remove it`);
      }
    }
    const r = hfTokenizer(file, raw as Record<string, unknown>, config);
    return r.ok ? { ok: true, tokenizer: r.tokenizer, file } : fail('tokenizer_invalid', r.message);
  }
  const parsed = TokenizerJson.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('tokenizer_invalid', `${file}: ${issue?.path.join('.')} ${issue?.message}: expected a BERT WordPiece tokenizer`);
  }
  const tj = parsed.data;

  const n = tj.normalizer;
  const lowercase = n ? (n.lowercase ?? true) : false;
  const normalizer: BertNormalizerOptions = {
    cleanText: n ? (n.clean_text ?? true) : false,
    handleChineseChars: n ? (n.handle_chinese_chars ?? true) : false,
    stripAccents: n ? (n.strip_accents ?? lowercase) : false,
    lowercase,
  };
  const [clsToken, sepToken] = framingTokens(tj.post_processor);
  return build(file, {
    vocab: new Map(Object.entries(tj.model.vocab)),
    normalizer,
    unkToken: tj.model.unk_token,
    continuingSubwordPrefix: tj.model.continuing_subword_prefix,
    maxInputCharsPerWord: tj.model.max_input_chars_per_word,
    clsToken,
    sepToken,
    padToken: tj.padding?.pad_token ?? '[PAD]',
  });
}

/** [CLS]/[SEP] as named by the post-processor (BertProcessing or TemplateProcessing), else the BERT defaults. */
function framingTokens(pp: z.infer<typeof Named> | null | undefined): [string, string] {
  if (pp?.type === 'BertProcessing') {
    const cls = (pp['cls'] as unknown[] | undefined)?.[0];
    const sep = (pp['sep'] as unknown[] | undefined)?.[0];
    if (typeof cls === 'string' && typeof sep === 'string') return [cls, sep];
  }
  if (pp?.type === 'TemplateProcessing' && Array.isArray(pp['single'])) {
    const items = pp['single'] as Array<{ SpecialToken?: { id?: unknown }; Sequence?: unknown }>;
    const seqAt = items.findIndex((i) => i.Sequence !== undefined);
    const cls = items[seqAt - 1]?.SpecialToken?.id;
    const sep = items[seqAt + 1]?.SpecialToken?.id;
    if (typeof cls === 'string' && typeof sep === 'string') return [cls, sep];
  }
  return ['[CLS]', '[SEP]'];
}

function fromVocabTxt(file: string, configPath: string): TokenizerLoad {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const vocab = new Map<string, number>();
  lines.forEach((line, i) => vocab.set(line.replace(/\r$/, ''), i)); // id = line number, as BertTokenizer reads it

  let config: z.infer<typeof TokenizerConfig> = {};
  if (existsSync(configPath)) {
    try {
      config = TokenizerConfig.parse(JSON.parse(readFileSync(configPath, 'utf8')));
    } catch (err) {
      return fail('tokenizer_invalid', `${configPath} is unreadable (${(err as Error).message}): fix or remove it`);
    }
  }
  const lowercase = config.do_lower_case ?? true;
  return build(file, {
    vocab,
    normalizer: {
      cleanText: true,
      handleChineseChars: config.tokenize_chinese_chars ?? true,
      stripAccents: config.strip_accents ?? lowercase,
      lowercase,
    },
    unkToken: '[UNK]',
    continuingSubwordPrefix: '##',
    maxInputCharsPerWord: 100,
    clsToken: '[CLS]',
    sepToken: '[SEP]',
    padToken: '[PAD]',
  });
}

function build(file: string, spec: BertTokenizerSpec): TokenizerLoad {
  for (const t of [spec.unkToken, spec.clsToken, spec.sepToken]) {
    if (!spec.vocab.has(t)) return fail('tokenizer_invalid', `${file}: the vocabulary has no ${t} token: is this a BERT tokenizer?`);
  }
  return { ok: true, tokenizer: wordPieceTokenizer(new BertTokenizer(spec)), file };
}

/** Our BERT tokenizer behind the common interface: [CLS] text [SEP]. */
export function wordPieceTokenizer(bert: BertTokenizer): TextTokenizer {
  return { kind: 'wordpiece', encode: (text) => bert.encode(text), prefix: [bert.clsId], suffix: [bert.sepId], fillerId: bert.unkId };
}
