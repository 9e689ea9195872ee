// Chooses the embedding provider named in config; the same plain-data settings build it in any thread.
import path from 'node:path';
import type { Config } from '../../config/load.js';
import type { EmbeddingProvider, TokenCounter } from '../../messages/embedding.js';
import type { EventLogger } from '../../supervisors/runtime/log.js';
import { hubModelDir, lockState, type HubSpec } from './providers/hub-paths.js';

/** Where `embedder.onnx.hub` is fetched from unless `hub_url` names a mirror. */
export const DEFAULT_HUB_URL = 'https://huggingface.co';

export type ProviderSettings =
  | { kind: 'use-lite'; cacheDir: string; quantize: 'fp32' | 'int8' }
  | {
      kind: 'onnx';
      modelDir: string;
      name?: string;
      maxTokens?: number;
      queryPrefix?: string;
      passagePrefix?: string;
      /** Set for `embedder.onnx.hub`: `modelDir` is its cache folder, filled at first use. */
      hub?: HubSpec;
      /** Where a thread that downloads logs its progress (stderr and the data dir's log). */
      log?: { level: string; dataDir: string };
    }
  | { kind: 'openai'; baseUrl: string; model: string; apiKey?: string; dim?: number };

export function providerSettings(cfg: Config, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const e = cfg.embedder;
  switch (e.provider) {
    case 'use-lite':
      return { kind: 'use-lite', cacheDir: path.join(cfg.data_dir, 'models'), quantize: e.quantize };
    case 'onnx': {
      const o = e.onnx;
      const common = {
        kind: 'onnx' as const,
        maxTokens: o?.max_tokens,
        queryPrefix: o?.query_prefix,
        passagePrefix: o?.passage_prefix,
        log: { level: cfg.log.level, dataDir: cfg.data_dir },
      };
      if (o?.hub) {
        const hub = hubSpec(cfg, o.hub);
        return { ...common, modelDir: hubModelDir(hub), name: o.name ?? o.hub, hub };
      }
      return { ...common, modelDir: path.resolve(cfg.vault, o?.model_dir ?? ''), name: o?.name };
    }
    case 'openai': {
      const apiKey = e.openai?.api_key_env ? env[e.openai.api_key_env] : undefined;
      return { kind: 'openai', baseUrl: e.openai?.base_url ?? '', model: e.openai?.model ?? '', apiKey, dim: e.openai?.dim };
    }
  }
}

/** What to fetch for `repo` under this config (its revision, file, pins and hub when it is the configured one). */
export function hubSpec(cfg: Config, repo: string, over: { revision?: string; file?: string; hubUrl?: string } = {}): HubSpec {
  const o = cfg.embedder.onnx?.hub === repo ? cfg.embedder.onnx : undefined;
  const pins = o?.sha256;
  return {
    repo,
    revision: over.revision ?? o?.revision ?? 'main',
    file: over.file ?? o?.file ?? null,
    sha256: pins && typeof pins === 'object' ? Object.fromEntries(Object.entries(pins).map(([k, v]) => [k, v.toLowerCase()])) : {},
    modelSha256: typeof pins === 'string' ? pins.toLowerCase() : null,
    hubUrl: over.hubUrl ?? o?.hub_url ?? DEFAULT_HUB_URL,
    modelsDir: path.join(cfg.data_dir, 'models'),
  };
}

/** Builds a provider; throws an Error whose `code` names why it could not start (the caller degrades to keyword search). */
export async function createProvider(s: ProviderSettings, intraOpThreads = 1): Promise<EmbeddingProvider> {
  switch (s.kind) {
    case 'use-lite': {
      const { createUseLiteProvider } = await import('./use-lite/provider.js');
      return createUseLiteProvider({ cacheDir: s.cacheDir, quantize: s.quantize, intraOpThreads });
    }
    case 'onnx': {
      const { createOnnxProvider } = await import('./providers/onnx.js');
      const at = await onnxFolder(s);
      return createOnnxProvider({
        modelDir: at.dir,
        modelFile: at.file,
        modelSha256: at.sha256,
        name: s.name,
        maxTokens: s.maxTokens,
        queryPrefix: s.queryPrefix,
        passagePrefix: s.passagePrefix,
        intraOpThreads,
      });
    }
    case 'openai': {
      const { createOpenAiProvider } = await import('./providers/openai.js');
      return createOpenAiProvider({ baseUrl: s.baseUrl, model: s.model, apiKey: s.apiKey, dim: s.dim });
    }
  }
}

let hubLog: EventLogger | null = null;

/** The export's folder: `modelDir`, or for a hub model its cache folder, downloaded first if need be (where it is first needed). */
async function onnxFolder(s: Extract<ProviderSettings, { kind: 'onnx' }>): Promise<{ dir: string; file?: string; sha256?: string }> {
  if (!s.hub) return { dir: s.modelDir };
  const [{ ensureHubModel }, { hubEventLines }, { makeLogger }] = await Promise.all([
    import('./providers/hub.js'),
    import('./providers/hub-log.js'),
    import('../../supervisors/runtime/log.js'),
  ]);
  // on stderr, as every log: stdout may be an MCP channel (`memvault mcp`) or a command's answer; one logger per thread
  hubLog ??= s.log ? makeLogger('models', { level: s.log.level, dataDir: s.log.dataDir }) : null;
  const log = hubLog;
  const got = await ensureHubModel(
    s.hub,
    hubEventLines((msg, e) => {
      const event =
        e.type === 'retry'
          ? 'model_download_retry'
          : e.type === 'cache_corrupt'
            ? 'model_cache_corrupt'
            : e.type === 'waiting'
              ? 'model_download_waiting'
              : e.type === 'downloaded'
                ? 'model_downloaded'
                : 'model_download';
      const level = e.type === 'retry' || e.type === 'cache_corrupt' ? 'warn' : 'info';
      log?.[level]({ event, repo: e.repo, ...('file' in e && { file: e.file }), ...(e.type === 'retry' && { reason: e.reason }) }, msg);
    }),
  );
  return { dir: got.dir, file: got.manifest.model_file, sha256: got.manifest.files[got.manifest.model_file]?.sha256 };
}

/** While a hub model is being downloaded, a sentence saying so (searches answer by keyword meanwhile); else null. */
export function modelBusy(s: ProviderSettings): string | null {
  if (s.kind !== 'onnx' || !s.hub) return null;
  const st = lockState(`${s.modelDir}.lock`);
  if (!st) return null;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `downloading ${s.hub.repo}${st.file ? ` (${st.file}: ${mb(st.done)}${st.total ? ` of ${mb(st.total)}` : ''})` : ''}`;
}

/**
 * The chunker's view of the model's tokenizer, without loading the model: chunks are sized in the model's own tokens.
 * Falls back to an approximation (and says so) when the tokenizer cannot be read; the embedder reports the real error.
 */
export async function tokenCounterFor(s: ProviderSettings): Promise<{ counter: TokenCounter; approximate: string | null }> {
  switch (s.kind) {
    case 'use-lite': {
      const { loadUseLiteTokenizer } = await import('./use-lite/tokenizer.js');
      return { counter: loadUseLiteTokenizer(), approximate: null };
    }
    case 'onnx': {
      const [{ loadTokenizer }, { readExportConfig }, { modelShape }] = await Promise.all([
        import('./providers/tokenizer-files.js'),
        import('./providers/export-config.js'),
        import('./providers/onnx.js'),
      ]);
      let dir: string;
      try {
        dir = (await onnxFolder(s)).dir;
      } catch (err) {
        return { counter: approxCounter(s.maxTokens ?? 256), approximate: (err as Error).message };
      }
      const r = loadTokenizer(dir);
      const exp = readExportConfig(dir);
      if (r.ok && exp.ok) {
        const tok = r.tokenizer;
        const shape = modelShape(tok, exp.config, s.name ?? path.basename(dir), s);
        return { counter: { maxTokens: shape.textBudget, count: (t: string) => tok.encode(t).length }, approximate: null };
      }
      return { counter: approxCounter(s.maxTokens ?? 256), approximate: r.ok ? (exp.ok ? null : exp.message) : r.message };
    }
    case 'openai':
      return { counter: approxCounter(512), approximate: 'remote tokenizer unknown: ~4 characters per token' };
  }
}

function approxCounter(maxTokens: number): TokenCounter {
  return { maxTokens, count: (t: string) => Math.ceil(t.length / 4) };
}
