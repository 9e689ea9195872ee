// On 70 real tldr pages indexed by the real chunker and the real model (use-lite), hybrid search finds the page that
// answers a paraphrased question (no command name in it) better than either list alone and than the baseline's
// reciprocal-rank fusion; e.g. "make a copy of a remote repository" finds git-clone first.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { BASELINE_RANKING, type Ranking } from '../../actors/gateway/ranking.js';
import { search } from '../../actors/gateway/search.js';
import { IndexWriter } from '../../actors/store-writer/index-writer.js';
import { openIndex } from '../../actors/store-writer/schema.js';
import type { SearchMode } from '../../messages/store.js';
import { indexTldrPages } from '../helpers/tldr-index.js';

/** Questions t170–t199 of bench/qrels/queries.json and the pages that answer each. */
const QUESTIONS: Array<[string, string[]]> = [
  ['show what I changed since the last commit', ['git-diff', 'git-status']],
  ['throw away my local edits to a file and go back to the committed version', ['git-restore', 'git-checkout', 'git-reset']],
  ['fix the message of the commit I just made', ['git-commit']],
  ['list the remote repositories this clone knows about', ['git-remote']],
  ['make a copy of a remote repository on my machine', ['git-clone', 'hub-clone']],
  ['edit files on another machine over ssh as if they were local', ['sshfs']],
  ['run the same command on many servers at once', ['pssh', 'ansible']],
  ['watch cpu and memory usage of running processes interactively', ['htop', 'btop', 'glances', 'bpytop', 'btm', 'gtop']],
  ['change the resolution of a video', ['ffmpeg', 'handbrakecli']],
  ['extract the audio track from a video file', ['ffmpeg']],
  ['resize every image in a folder at once', ['magick-mogrify', 'magick']],
  ['read the camera metadata of a photo', ['exiftool', 'exiv2', 'magick-identify', 'identify']],
  ['strip the location data from my photos before sharing them', ['exiftool', 'exiv2', 'mat2']],
  ['encode binary data as plain text that can be pasted into an email', ['base64', 'uuencode']],
  ['see how much bandwidth my network interface is using right now', ['bandwhich', 'nload']],
  ['log into a remote machine and get a shell', ['ssh', 'mosh', 'telnet']],
  ['keep a remote shell session alive over a flaky mobile connection', ['mosh', 'autossh']],
  ['copy a directory tree preserving permissions', ['cp', 'rsync']],
  ['jump to a directory I visit often by typing part of its name', ['z', 'zoxide', 'autojump']],
  ['fuzzy search through a list and pick an item interactively', ['fzf', 'sk', 'peco']],
  ['search through the commands I typed earlier', ['history', 'fc', 'mcfly', 'atuin']],
  ['find text in many files and replace it in place', ['sed', 'sd', 'fastmod', 'perl', 'git-sed', 'repren', 'ned']],
  ['show the last few lines of a file', ['tail']],
  ['merge the lines of two files side by side', ['paste']],
  ['delete a folder and everything inside it', ['rm']],
  ['update the modification time of a file or create an empty one', ['touch']],
  ["see a file's size, permissions and timestamps in detail", ['stat', 'ls', 'eza', 'exa']],
  ['figure out what kind of data a file contains', ['file']],
  ['start a new javascript project with a package manifest', ['npm-init', 'npm', 'yarn', 'pnpm']],
  ['format my javascript code automatically', ['prettier', 'deno', 'standard']],
];

t.test('hybrid ranks the answering page higher than bm25, vector or reciprocal-rank fusion alone', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-paraphrase-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const model = await createUseLiteProvider({ cacheDir: path.join(dir, 'models'), quantize: 'fp32' });
  t.teardown(() => model.close());
  const db = openIndex(path.join(dir, 'index.sqlite'), { readonly: false });
  t.teardown(() => db.close());
  const writer = new IndexWriter(db, { model: model.info, chunkerVersion: 'test-1', now: () => 1_700_000_000_000 });

  const pages = [...new Set(QUESTIONS.flatMap(([, answers]) => answers))].sort();
  await indexTldrPages(writer, model, pages);
  t.equal(pages.length, 70);

  const mrr: Record<string, number> = { hybrid: 0, bm25: 0, vector: 0, baseline: 0 };
  const firstOf: Record<string, string | undefined> = {};
  for (const [question, answers] of QUESTIONS) {
    const [q] = await model.embed([question]);
    const want = new Set(answers.map((a) => `${a}.md`));
    const runs: Array<[string, SearchMode, Ranking | undefined]> = [
      ['hybrid', 'hybrid', undefined],
      ['bm25', 'bm25', undefined],
      ['vector', 'vector', undefined],
      ['baseline', 'hybrid', BASELINE_RANKING],
    ];
    for (const [name, mode, ranking] of runs) {
      const hits = search(db, { query: question, k: 10, mode, group: 'note' }, q!, ranking ? { ranking } : {});
      const rank = hits.findIndex((h) => want.has(h.path)) + 1;
      mrr[name]! += rank > 0 ? 1 / rank / QUESTIONS.length : 0;
      if (name === 'hybrid') firstOf[question] = hits[0]?.path;
    }
  }
  t.comment(`MRR@10 over ${QUESTIONS.length} questions: ${JSON.stringify(mrr)}`);
  t.equal(firstOf['make a copy of a remote repository on my machine'], 'git-clone.md', 'no word of "clone" in the question');
  t.match(firstOf['show what I changed since the last commit'], /^git-(diff|status)\.md$/);
  t.ok(mrr['hybrid']! > mrr['bm25']!, 'hybrid ranks better than keywords alone');
  t.ok(mrr['hybrid']! > mrr['vector']!, 'and better than the model alone');
  t.ok(mrr['hybrid']! > mrr['baseline']!, 'and better than reciprocal-rank fusion of chunks, as before');
});
