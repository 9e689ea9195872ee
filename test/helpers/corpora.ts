// The shared corpora (real markdown by others, read-only) for tests and benches, found one way: $MEMVAULT_CORPORA,
// else ../shared/corpora beside the repository (as CI lays it out). Missing data is an error that says so.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..'); // dist/test/helpers → repo

export const CORPORA = process.env['MEMVAULT_CORPORA'] ?? path.resolve(REPO, '..', 'shared', 'corpora');

export type CorpusName = 'tldr-common' | 'rust-book';

/** A corpus folder; throws naming where it looked and how to point elsewhere when it is missing. */
export function corpusDir(name: CorpusName): string {
  const dir = path.join(CORPORA, name);
  if (!existsSync(dir)) {
    throw new Error(
      `the shared corpus ${name} is missing at ${dir}: put shared/corpora beside the repository (../shared/corpora) or set MEMVAULT_CORPORA`,
    );
  }
  return dir;
}

/** The corpus's .md file names, sorted (stable across machines); throws when there are none. */
export function corpusFiles(name: CorpusName): string[] {
  const files = readdirSync(corpusDir(name))
    .filter((f) => f.endsWith('.md'))
    .sort();
  if (files.length === 0) throw new Error(`the shared corpus ${name} at ${corpusDir(name)} holds no .md files`);
  return files;
}

/** `count` chunks of about `words` words spread over chapters 10–29 of the Rust book: the kind of text a vault embeds. */
export function rustBookChunks(count: number, words = 40): string[] {
  const dir = corpusDir('rust-book');
  const all = corpusFiles('rust-book')
    .slice(10, 30)
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split(/\s+/).filter(Boolean));
  const step = Math.floor(all.length / count);
  return Array.from({ length: count }, (_, i) => all.slice(i * step, i * step + words).join(' '));
}
