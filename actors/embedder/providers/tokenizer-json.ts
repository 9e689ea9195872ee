// tokenizer.json kinds other than BERT WordPiece (SentencePiece/Unigram, BPE) through @huggingface/tokenizers, framed
// with the special tokens the export's own post-processor adds, so the model sees what sentence-transformers gives it.
import { Tokenizer } from '@huggingface/tokenizers';
import { fail, type Result } from '../../../messages/common.js';

/** Text → ids the way one export's tokenizer does it, with the window's framing (e.g. [CLS] … [SEP], <s> … </s>) apart. */
export interface TextTokenizer {
  readonly kind: 'wordpiece' | 'unigram' | 'bpe';
  /** Token ids without special tokens. */
  encode(text: string): number[];
  /** Special tokens before and after the text, as the export's post-processor adds them to a single sequence. */
  readonly prefix: readonly number[];
  readonly suffix: readonly number[];
  /** An ordinary token's id, for probe runs. */
  readonly fillerId: number;
}

const KINDS: Record<string, TextTokenizer['kind']> = { Unigram: 'unigram', BPE: 'bpe', WordPiece: 'wordpiece' };
const PROBE = 'memvault probe text';

/**
 * A tokenizer.json read by @huggingface/tokenizers (pure JS, no network: it is handed the parsed files). `json` is
 * the parsed tokenizer.json, `config` tokenizer_config.json (or {}).
 */
export function hfTokenizer(
  file: string,
  json: Record<string, unknown>,
  config: Record<string, unknown>,
): Result<{ tokenizer: TextTokenizer }> {
  const model = json['model'] as { type?: unknown } | undefined;
  const type = typeof model?.type === 'string' ? model.type : '';
  const kind = KINDS[type];
  if (!kind)
    return fail('tokenizer_invalid', `${file}: model type "${type}" is not supported; WordPiece, Unigram (SentencePiece) and BPE are`);
  let tok: Tokenizer;
  try {
    // the library wants every part present, null when the export has none
    const full = { normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [], ...json };
    tok = new Tokenizer(full, config);
  } catch (err) {
    return fail('tokenizer_invalid', `${file}: the ${type} tokenizer could not be read (${(err as Error).message}): re-download it`);
  }
  let bare: number[];
  let framed: number[];
  try {
    bare = tok.encode(PROBE, { add_special_tokens: false }).ids;
    framed = tok.encode(PROBE, { add_special_tokens: true }).ids;
  } catch (err) {
    return fail('tokenizer_invalid', `${file}: the ${type} tokenizer fails on plain text (${(err as Error).message})`);
  }
  const at = findRun(framed, bare);
  if (bare.length === 0 || at < 0)
    return fail('tokenizer_invalid', `${file}: its post-processor does not frame a text with special tokens around it`);
  const prefix = framed.slice(0, at);
  const suffix = framed.slice(at + bare.length);
  return {
    ok: true,
    tokenizer: {
      kind,
      encode: (text: string) => tok.encode(text, { add_special_tokens: false }).ids,
      prefix,
      suffix,
      fillerId: bare[0]!,
    },
  };
}

/** Index of `needle` as a contiguous run inside `hay`, or -1. */
function findRun(hay: number[], needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
