// Where the shared corpora live: $MEMVAULT_CORPORA, else shared/corpora beside the repository (as CI lays it out).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..'); // dist/test/embedder/helpers → repo

export const CORPORA = process.env['MEMVAULT_CORPORA'] ?? path.resolve(repoRoot, '..', 'shared', 'corpora');
