// A hub model at first use: the export's config, tokenizer and ONNX files downloaded once into
// <data dir>/models/<org>--<name>@<revision>/ (temp file beside its place, size and sha256 checked, then renamed in),
// and on every later load checked against its manifest with no request at all. One loader downloads; others wait.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, unlink, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { providerError, type ProviderError } from '../../../messages/providers.js';
import {
  takeLock,
  checkCachedFile,
  clearFailure,
  readFailure,
  readManifest,
  recordFailure,
  sha256File,
  syncDir,
  writeManifest,
  type Manifest,
  type ManifestFile,
} from './hub-cache.js';
import { hubModelDir, type HubSpec, type LockState } from './hub-paths.js';
import { fetchInto, headFile, HubError, resolveUrl, type FileMeta } from './hub-http.js';

export type { HubSpec };

/** What a caller may show: a progress bar on a TTY, log lines otherwise. */
export type HubEvent =
  | { type: 'waiting'; repo: string; holder: LockState }
  | { type: 'file'; repo: string; file: string; size: number | null; resumeFrom: number }
  | { type: 'progress'; repo: string; file: string; done: number; total: number | null }
  | {
      type: 'retry';
      repo: string;
      file: string;
      reason: 'truncated' | 'checksum_mismatch' | 'size_mismatch';
      message: string;
      attempt: number;
    }
  | { type: 'cache_corrupt'; repo: string; file: string; message: string }
  | { type: 'downloaded'; repo: string; dir: string; bytes: number; ms: number };

export interface HubModel {
  dir: string;
  manifest: Manifest;
  /** This call downloaded something (false: every file came from the cache, with no request). */
  downloaded: boolean;
}

/** Files beside the weights that say how to run them; any may be missing from a repository. */
export const EXPORT_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'modules.json',
  '1_Pooling/config.json',
  'sentence_bert_config.json',
  'config_sentence_transformers.json',
];
/** Only when there is no tokenizer.json (older BERT exports). */
const VOCAB = 'vocab.txt';
const DEFAULT_MODEL_FILES = ['onnx/model.onnx', 'model.onnx'];
/** Attempts per file: a cut-off transfer resumes, a corrupt one starts over. */
const MAX_ATTEMPTS = 3;
/** A failure this recent is reported to loaders that waited for it instead of being tried again at once. */
const FAILURE_FRESH_MS = 60_000;

const SHA256 = /^[0-9a-f]{64}$/;
const SHA1 = /^[0-9a-f]{40}$/;

/**
 * The model's folder, downloading what is missing. Throws a ProviderError: `model_unavailable` (hub unreachable and
 * no whole copy cached: say what to do), `model_missing` (no such repository, revision or ONNX file),
 * `checksum_mismatch` (a file's sha256 is not the pinned one).
 */
export async function ensureHubModel(spec: HubSpec, onEvent: (e: HubEvent) => void = () => {}): Promise<HubModel> {
  const dir = hubModelDir(spec);
  const waitStart = Date.now();
  for (let waited = false; ; waited = true) {
    const seen = readManifest(dir);
    const cached = await checkCache(spec, dir, seen, onEvent);
    if (cached) return { dir, manifest: cached, downloaded: false };
    if (waited) {
      // another loader held the folder and did not finish it: if it just failed, do not hammer the hub again
      const failed = await readFailure(dir);
      if (failed && failed.at >= waitStart - FAILURE_FRESH_MS) throw providerError(failed.code as ProviderError['code'], failed.message);
    }
    await mkdir(spec.modelsDir, { recursive: true });
    const lock = await takeLock(dir, (holder) => onEvent({ type: 'waiting', repo: spec.repo, holder }));
    if (!lock) continue; // another loader held it: look at what it left, without the lock
    // (a whole copy seen, with a file not as recorded, is downloaded again: its manifest stays until then)
    if (!wholeCopyOf(spec, seen) && wholeCopyOf(spec, readManifest(dir))) {
      // another loader finished the folder and let go between our look and the lock: check its files without the
      // lock (the lock reads as "downloading"), rather than download the whole model a second time
      await lock.release();
      continue;
    }
    try {
      const manifest = await download(spec, dir, lock, onEvent);
      await clearFailure(dir);
      return { dir, manifest, downloaded: true };
    } catch (err) {
      const e = asProviderError(spec, err);
      await recordFailure(dir, { at: Date.now(), code: e.code, message: e.message });
      throw e;
    } finally {
      await lock.release();
    }
  }
}

/** Whether a folder's manifest (written last, once every file is in) is that of a whole copy of `spec`'s model. */
function wholeCopyOf(spec: HubSpec, m: Manifest | null): m is Manifest {
  return m !== null && m.repo === spec.repo && (spec.file === null || m.model_file === spec.file);
}

/**
 * `m` (the folder's manifest, as just read) when the folder holds a whole model for `spec` whose files all check out;
 * null to (re)download.
 */
async function checkCache(spec: HubSpec, dir: string, m: Manifest | null, onEvent: (e: HubEvent) => void): Promise<Manifest | null> {
  if (!wholeCopyOf(spec, m)) return null;
  for (const [rel, entry] of Object.entries(m.files)) {
    const pinned = spec.sha256[rel] ?? (rel === m.model_file ? spec.modelSha256 : null);
    if (pinned && pinned !== entry.sha256)
      throw providerError(
        'checksum_mismatch',
        `${path.join(dir, rel)} has sha256 ${entry.sha256} but embedder.onnx.sha256 pins ${pinned}: fix the pin, or delete ${dir} to download ${spec.repo} again`,
      );
    const r = await checkCachedFile(dir, rel, entry);
    if (!r.ok) {
      onEvent({ type: 'cache_corrupt', repo: spec.repo, file: rel, message: r.message });
      await unlink(path.join(dir, rel)).catch(() => undefined); // refused: it is fetched again below
      return null;
    }
  }
  return m;
}

interface Plan {
  file: string;
  /** The ONNX file: required, and `modelSha256` applies. */
  model: boolean;
}

async function download(
  spec: HubSpec,
  dir: string,
  lock: { progress(f: string, d: number, t: number | null): void },
  onEvent: (e: HubEvent) => void,
): Promise<Manifest> {
  const started = performance.now();
  const unknownPins = Object.keys(spec.sha256).filter(
    (f) => !EXPORT_FILES.includes(f) && f !== VOCAB && !(spec.file ? [spec.file] : DEFAULT_MODEL_FILES).includes(f),
  );
  if (unknownPins.length)
    throw providerError(
      'model_missing',
      `embedder.onnx.sha256 pins ${unknownPins.join(', ')}, which memvault does not download for ${spec.repo}`,
    );
  await mkdir(dir, { recursive: true });
  const files: Record<string, ManifestFile> = {};
  const absent: string[] = [];
  let revision = spec.revision;
  let commit: string | null = null;
  let bytes = 0;

  const fetchOne = async (p: Plan): Promise<boolean> => {
    const meta = await headFile(resolveUrl(spec.hubUrl, spec.repo, revision, p.file));
    if (!meta) {
      if (p.model) return false;
      absent.push(p.file);
      return true;
    }
    if (meta.commit && !commit) {
      commit = meta.commit;
      // the rest comes from the same commit, even if the branch moves meanwhile (as snapshot_download does)
      if (SHA1.test(commit)) revision = commit;
    }
    const pinned = spec.sha256[p.file] ?? (p.model ? spec.modelSha256 : null);
    const entry = await fetchFile(spec, dir, p.file, meta, pinned, lock, onEvent);
    files[p.file] = entry;
    bytes += entry.size;
    return true;
  };

  for (const f of EXPORT_FILES) await fetchOne({ file: f, model: false });
  if (!files['tokenizer.json']) await fetchOne({ file: VOCAB, model: false });
  let modelFile: string | null = null;
  for (const f of spec.file ? [spec.file] : DEFAULT_MODEL_FILES) {
    if (await fetchOne({ file: f, model: true })) {
      modelFile = f;
      break;
    }
  }
  if (!modelFile)
    throw providerError(
      'model_missing',
      `${spec.repo}@${spec.revision} on ${spec.hubUrl} has no ${spec.file ?? DEFAULT_MODEL_FILES.join(' or ')}: set embedder.onnx.file to the ONNX export's path in the repository`,
    );
  if (!files['tokenizer.json'] && !files[VOCAB])
    throw providerError(
      'model_missing',
      `${spec.repo}@${spec.revision} has neither tokenizer.json nor vocab.txt: memvault cannot tokenize for it`,
    );
  const manifest: Manifest = {
    format: 1,
    repo: spec.repo,
    revision: spec.revision,
    commit,
    hub_url: spec.hubUrl,
    model_file: modelFile,
    files,
    absent,
    downloaded_at: new Date().toISOString(),
  };
  await writeManifest(dir, manifest);
  onEvent({ type: 'downloaded', repo: spec.repo, dir, bytes, ms: Math.round(performance.now() - started) });
  return manifest;
}

/** One file into place: kept if already there and right, else fetched (resumed, retried) and renamed in. */
async function fetchFile(
  spec: HubSpec,
  dir: string,
  rel: string,
  meta: FileMeta,
  pinned: string | null,
  lock: { progress(f: string, d: number, t: number | null): void },
  onEvent: (e: HubEvent) => void,
): Promise<ManifestFile> {
  const final = path.join(dir, rel);
  const served = meta.etag && SHA256.test(meta.etag) ? meta.etag : null;
  const check = async (file: string): Promise<{ ok: boolean; sha256: string; why: string }> => {
    const sha256 = await sha256File(file);
    if (pinned && sha256 !== pinned) return { ok: false, sha256, why: `sha256 ${sha256}, pinned ${pinned}` };
    if (served && sha256 !== served) return { ok: false, sha256, why: `sha256 ${sha256}, the hub's ETag says ${served}` };
    if (meta.etag && SHA1.test(meta.etag)) {
      const blob = await gitBlobSha1(file);
      if (blob !== meta.etag) return { ok: false, sha256, why: `git blob ${blob}, the hub's ETag says ${meta.etag}` };
    }
    return { ok: true, sha256, why: '' };
  };
  // a file a cut-off run already put in place is kept when it still checks out against the hub
  const there = await stat(final).catch(() => null);
  if (there?.isFile() && (meta.size === null || there.size === meta.size) && (pinned || served || meta.etag)) {
    const c = await check(final);
    if (c.ok) return { size: there.size, sha256: c.sha256, etag: meta.etag };
  }
  await mkdir(path.dirname(final), { recursive: true });
  const temp = `${final}.incomplete`;
  const sidecar = `${temp}.etag`;
  // bytes left by an attempt at another version of the file are useless
  const prior = await readFile(sidecar, 'utf8').catch(() => null);
  if (prior !== (meta.etag ?? '')) await unlink(temp).catch(() => undefined);
  await writeFile(sidecar, meta.etag ?? '');

  for (let attempt = 1; ; attempt++) {
    const resumeFrom = (await stat(temp).catch(() => null))?.size ?? 0;
    onEvent({ type: 'file', repo: spec.repo, file: rel, size: meta.size, resumeFrom });
    const got = await fetchInto(meta, temp, (done) => {
      lock.progress(rel, done, meta.size);
      onEvent({ type: 'progress', repo: spec.repo, file: rel, done, total: meta.size });
    });
    const retry = (reason: 'truncated' | 'checksum_mismatch' | 'size_mismatch', message: string, final: ProviderError): void => {
      if (attempt >= MAX_ATTEMPTS) throw final;
      onEvent({ type: 'retry', repo: spec.repo, file: rel, reason, message, attempt });
    };
    if (!got.complete || (meta.size !== null && got.bytes < meta.size)) {
      const why = got.error ?? `${got.bytes} of ${meta.size} bytes`;
      retry(
        'truncated',
        `${rel}: cut off after ${got.bytes} bytes (${why}); resuming`,
        providerError('model_unavailable', `${spec.repo}: ${rel} stayed incomplete after ${MAX_ATTEMPTS} attempts (${why})`),
      );
      continue;
    }
    if (meta.size !== null && got.bytes > meta.size) {
      await unlink(temp).catch(() => undefined);
      retry(
        'size_mismatch',
        `${rel}: ${got.bytes} bytes, the hub said ${meta.size}; starting over`,
        providerError('checksum_mismatch', `${spec.repo}: ${rel} came as ${got.bytes} bytes, the hub said ${meta.size}`),
      );
      continue;
    }
    const c = await check(temp);
    if (!c.ok) {
      await unlink(temp).catch(() => undefined);
      const refused = providerError(
        'checksum_mismatch',
        `${spec.repo}: ${rel} was refused (${c.why})${pinned ? `: check embedder.onnx.sha256 and revision (${spec.revision})` : ''}`,
      );
      // the hub's own ETag agrees with what came, so it serves another file than the pinned one: retrying cannot help
      if (pinned && c.sha256 === served) throw refused;
      retry('checksum_mismatch', `${rel}: ${c.why}; starting over`, refused);
      continue;
    }
    await rename(temp, final);
    await unlink(sidecar).catch(() => undefined);
    await syncDir(path.dirname(final));
    return { size: got.bytes, sha256: c.sha256, etag: meta.etag };
  }
}

/** The git blob id, which the hub sends as the ETag of files kept in git rather than LFS. */
async function gitBlobSha1(file: string): Promise<string> {
  const size = (await stat(file)).size;
  const h = createHash('sha1').update(`blob ${size}\0`);
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Every failure as a ProviderError with a reason a person can act on. */
function asProviderError(spec: HubSpec, err: unknown): ProviderError {
  if (err instanceof HubError) {
    const pull = `run \`memvault models pull ${spec.repo}\` where the hub is reachable (or copy ${hubModelDir(spec)} from such a machine), or set embedder.onnx.hub_url to a mirror; until then search is keyword-only`;
    switch (err.kind) {
      case 'not_found':
        return providerError(
          'model_missing',
          `${spec.repo}@${spec.revision} was not found on ${spec.hubUrl} (${err.message}): check embedder.onnx.hub and revision`,
        );
      case 'refused':
        return providerError('model_missing', `${spec.repo} cannot be downloaded from ${spec.hubUrl}: ${err.message}`);
      case 'unreachable':
      case 'server':
        return providerError(
          'model_unavailable',
          `${spec.repo} is not cached and ${spec.hubUrl} cannot be reached (${err.message}): ${pull}`,
        );
    }
  }
  if (err instanceof Error && typeof (err as { code?: unknown }).code === 'string') {
    const code = (err as unknown as { code: string }).code;
    if (['model_unavailable', 'model_missing', 'checksum_mismatch', 'model_invalid'].includes(code)) return err as ProviderError;
    // a file system error (a full or read-only data dir): the model cannot be stored, so it is not available
    return providerError('model_unavailable', `${spec.repo} could not be stored in ${spec.modelsDir} (${code}: ${err.message})`);
  }
  return providerError('model_unavailable', `${spec.repo}: ${String((err as Error)?.message ?? err)}`);
}
