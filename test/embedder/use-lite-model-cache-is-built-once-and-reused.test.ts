// The use-lite ONNX file is built once per package version and variant, reused after, and never left torn.
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ensureUseLiteModel, ensureUseLiteModelFile, useLiteModelFileName } from '../../actors/embedder/use-lite/build-onnx.js';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-use-lite-cache-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('the second ensure reuses the file the first one built', async (t) => {
  const dir = tempDir(t);
  const first = await ensureUseLiteModelFile(dir);
  t.equal(first.built, true, 'the first call builds');
  t.equal(path.basename(first.path), 'use-lite-0.2.0-fp32-r2.onnx', 'the name holds package version, weight format and builder revision');
  const before = statSync(first.path);
  t.ok(before.size > 27_000_000, 'the fp32 file holds all weights');

  const second = await ensureUseLiteModelFile(dir);
  t.same(second, { path: first.path, built: false }, 'the second call reuses it');
  t.equal(statSync(first.path).mtimeMs, before.mtimeMs, 'the file was not rewritten');
  t.equal(await ensureUseLiteModel(dir), first.path);
  t.equal(useLiteModelFileName('int8s8'), 'use-lite-0.2.0-int8s8-r2.onnx', 'formats never share a file');
  t.equal(useLiteModelFileName('int8u8'), 'use-lite-0.2.0-int8u8-r2.onnx');
});

t.test('concurrent builds leave one whole file and no temp files', async (t) => {
  const dir = tempDir(t);
  const results = await Promise.all([ensureUseLiteModelFile(dir), ensureUseLiteModelFile(dir), ensureUseLiteModelFile(dir)]);
  t.equal(new Set(results.map((r) => r.path)).size, 1);
  t.same(readdirSync(dir), [useLiteModelFileName('fp32')], 'only the model file remains');
  const provider = await createUseLiteProvider({ cacheDir: dir });
  t.equal((await provider.embed(['still loads']))[0]!.length, 512);
  await provider.close();
});

t.test('a damaged cached file is rebuilt, and stale temp files from a crashed build are swept', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, useLiteModelFileName('fp32'));
  writeFileSync(file, 'not a model'); // e.g. a disk error, or a foreign file under our name
  const stale = `${file}.1234-0-deadbeef.tmp`;
  writeFileSync(stale, 'half a model');
  const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  utimesSync(stale, hourAgo, hourAgo);

  const provider = await createUseLiteProvider({ cacheDir: dir });
  t.teardown(() => provider.close());
  const [v] = await provider.embed(['hello world']);
  t.ok(Math.abs(v!.reduce((s, x) => s + x * x, 0) - 1) < 1e-5, 'the rebuilt model embeds');
  t.ok(statSync(file).size > 27_000_000, 'the damaged file was replaced by a whole build');
  t.same(readdirSync(dir), [useLiteModelFileName('fp32')], 'the stale temp file is gone');
});
