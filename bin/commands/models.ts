// `memvault models list|pull`: what is cached in <data dir>/models (size, which model built the index), and a hub
// model downloaded ahead of time (e.g. in a container build) — a progress bar on a TTY, a line per step otherwise.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { hubSpec, providerSettings } from '../../actors/embedder/factory.js';
import { listHubModels } from '../../actors/embedder/providers/hub-cache.js';
import { hubEventLines, megabytes } from '../../actors/embedder/providers/hub-log.js';
import { ensureHubModel, type HubEvent } from '../../actors/embedder/providers/hub.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import { IndexReader } from '../../actors/store-writer/index-reader.js';
import { modelKey, type ModelInfo } from '../../messages/common.js';
import { indexFile } from '../../supervisors/runtime/boot.js';
import { configFor, EXIT, UsageError, type Args } from '../args.js';
import type { Config } from '../../config/load.js';
import { openingIndex } from '../index-damaged.js';

export async function modelsCommand(a: Args): Promise<number> {
  const [sub, ...rest] = a.rest;
  switch (sub) {
    case 'list':
      return list(a);
    case 'pull':
      return pull(a, rest);
    default:
      throw new UsageError(sub ? `unknown models command "${sub}" (list or pull)` : 'models needs list or pull');
  }
}

/** One row of `models list`. */
interface Row {
  model: string;
  kind: 'hub' | 'use-lite';
  state: 'ready' | 'incomplete' | 'downloading';
  bytes: number;
  path: string;
  commit: string | null;
  /** The index's vectors were made by this model. */
  index: boolean;
  /** The configuration names this model. */
  configured: boolean;
}

function indexModel(cfg: Config): ModelInfo | null {
  const file = indexFile(cfg);
  if (!existsSync(file)) return null;
  const db = openingIndex(file, () => openIndex(file, { readonly: true }));
  try {
    return new IndexReader(db).model();
  } finally {
    db.close();
  }
}

function rows(cfg: Config): { rows: Row[]; index: ModelInfo | null } {
  const modelsDir = path.join(cfg.data_dir, 'models');
  const index = indexModel(cfg);
  const s = providerSettings(cfg);
  const out: Row[] = listHubModels(modelsDir).map((m) => {
    const repo = m.manifest?.repo ?? m.folder.replace('--', '/').replace(/@.*$/, '');
    const sha = m.manifest ? m.manifest.files[m.manifest.model_file]?.sha256 : undefined;
    return {
      model: `${repo}@${m.manifest?.revision ?? m.folder.replace(/^.*@/, '')}`,
      kind: 'hub',
      state: m.downloading ? 'downloading' : m.manifest ? 'ready' : 'incomplete',
      bytes: m.bytes,
      path: m.dir,
      commit: m.manifest?.commit ?? null,
      // the index records the model file's sha256 prefix as its version (plus pooling/prompt suffixes)
      index: !!(index && sha && index.provider === 'onnx' && index.name === repo && index.version.startsWith(sha.slice(0, 12))),
      configured: s.kind === 'onnx' && !!s.hub && s.modelDir === m.dir,
    };
  });
  if (existsSync(modelsDir)) {
    for (const f of readdirSync(modelsDir).filter((n) => /^use-lite-.*\.onnx$/.test(n))) {
      const version = /^use-lite-(.+?)-(fp32|int8s8|int8u8)-/.exec(f);
      const int8 = version?.[2] !== 'fp32';
      out.push({
        model: `use-lite ${version?.[1] ?? '?'} ${version?.[2] ?? ''}`.trim(),
        kind: 'use-lite',
        state: 'ready',
        bytes: statSync(path.join(modelsDir, f)).size,
        path: path.join(modelsDir, f),
        commit: null,
        index: !!(
          index &&
          index.provider === 'use-lite' &&
          version &&
          index.version.startsWith(version[1]!) &&
          index.version.includes('int8') === int8
        ),
        configured: s.kind === 'use-lite' && (s.quantize === 'int8') === int8,
      });
    }
  }
  return { rows: out, index };
}

function list(a: Args): number {
  const cfg = configFor(a, { vaultRequired: false });
  const { rows: r, index } = rows(cfg);
  if (a.json) {
    process.stdout.write(JSON.stringify({ models_dir: path.join(cfg.data_dir, 'models'), index_model: index, models: r }, null, 2) + '\n');
    return EXIT.ok;
  }
  const lines = [`models in ${path.join(cfg.data_dir, 'models')}`];
  if (r.length === 0) lines.push('  none cached yet');
  const width = Math.max(0, ...r.map((x) => x.model.length));
  for (const x of r) {
    const marks = [x.index && 'built the index', x.configured && 'configured'].filter(Boolean).join(', ');
    lines.push(
      `  ${x.model.padEnd(width)}  ${megabytes(x.bytes).padStart(9)}  ${x.state.padEnd(11)}${x.commit ? ` commit ${x.commit.slice(0, 10)}` : ''}${marks ? `  (${marks})` : ''}`,
    );
  }
  lines.push(`index built with: ${index ? modelKey(index) : 'no model recorded (no index yet, or keyword-only)'}`);
  process.stdout.write(lines.join('\n') + '\n');
  return EXIT.ok;
}

async function pull(a: Args, rest: string[]): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const repo = rest[0] ?? cfg.embedder.onnx?.hub;
  if (!repo) throw new UsageError('models pull needs ORG/NAME (or embedder.onnx.hub in the config)');
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(repo)) throw new UsageError(`"${repo}" is not ORG/NAME`);
  const spec = hubSpec(cfg, repo, { revision: a.revision, file: a.file, hubUrl: a.hubUrl });
  const tty = process.stderr.isTTY === true;
  const say = hubEventLines((line) => process.stderr.write(`memvault: ${line}\n`));
  let bar: cliProgress.SingleBar | null = null;
  const onEvent = (e: HubEvent): void => {
    if (!tty) {
      say(e);
      return;
    }
    if (e.type === 'file') {
      bar?.stop();
      bar = new cliProgress.SingleBar(
        { format: `${e.file.padEnd(28)} |{bar}| {percentage}% | {done} of {size}`, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(e.size ?? 1, e.resumeFrom, { done: megabytes(e.resumeFrom), size: e.size === null ? '?' : megabytes(e.size) });
    } else if (e.type === 'progress') {
      bar?.update(e.done, { done: megabytes(e.done) });
    } else {
      bar?.stop();
      bar = null;
      if (e.type !== 'downloaded') say(e); // retries, waits, refusals: said in words
    }
  };
  try {
    const got = await ensureHubModel(spec, onEvent);
    (bar as cliProgress.SingleBar | null)?.stop();
    const size = Object.values(got.manifest.files).reduce((n, f) => n + f.size, 0);
    process.stderr.write(
      `memvault: ${repo}@${spec.revision}${got.manifest.commit ? ` (commit ${got.manifest.commit.slice(0, 10)})` : ''} is ${got.downloaded ? 'downloaded' : 'already cached'} in ${got.dir} (${Object.keys(got.manifest.files).length} files, ${megabytes(size)})\n`,
    );
    return EXIT.ok;
  } catch (err) {
    (bar as cliProgress.SingleBar | null)?.stop();
    const e = err as Error & { code?: string };
    process.stderr.write(`memvault: ${e.code ?? 'failed'}: ${e.message}\n`);
    return EXIT.failure;
  }
}
