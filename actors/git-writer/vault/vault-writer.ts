// The one mutation path into the vault: checks an agent's write, delete or move in a fixed order, then applies it
// atomically — every refusal is data with a stable reason code and a message saying what to fix.
import fs from 'node:fs';
import { stat } from 'node:fs/promises';
import { assertNever, fail, type Failure } from '../../../messages/common.js';
import type { VaultOp, WriteFailReason } from '../../../messages/vault-ops.js';
import { isSensitive as frontmatterFlagsSensitive, readFrontmatter } from '../../chunker/frontmatter.js';
import { atomicWriteFile, moveFile, removeFile } from './atomic.js';
import { mergeFrontmatter } from './frontmatter-merge.js';
import { checkVaultPath } from './path-rules.js';
import { resolveVaultPath } from './paths.js';
import { DEFAULT_MAX_BYTES, type ApplyCaller, type ApplyResult, type ResolvedPath, type VaultWriterOptions } from './types.js';
import { sha256Hex } from '../../../messages/hash.js';

// Errors that mean "the disk or its permissions are in the way right now", reported as `unavailable`; anything
// else is a bug and throws.
const ENVIRONMENT = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
  'EIO',
  'EMFILE',
  'ENFILE',
  'EBUSY',
  'ETXTBSY',
  'EAGAIN',
]);
// Free space a write or move must leave on the vault's disk, beyond the note itself, for git's objects, index and
// reflog: below it the change is refused as `disk_full` before the note is touched — never "written, not committed".
const MIN_FREE_BYTES = 1 << 20;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

interface Current {
  bytes: Buffer;
  mtimeMs: number;
}

/** Why `content` cannot be stored as a UTF-8 note, or null. */
function contentProblem(content: unknown): string | null {
  if (typeof content !== 'string') return `content must be a string of note text, got ${content === null ? 'null' : typeof content}`;
  const nul = content.indexOf('\u0000');
  if (nul >= 0) return `content holds a NUL character at index ${nul}, so it is not text; remove it`;
  const lone = LONE_SURROGATE.exec(content);
  if (lone) return `content is not valid Unicode text (lone surrogate at index ${lone.index}, which UTF-8 cannot encode); fix the encoding`;
  return null;
}

/** The note as it is, read with synchronous calls: a note is small, and each call costs less than a thread-pool hop. */
async function readCurrent(abs: string): Promise<Current | null> {
  let fd: number;
  try {
    fd = fs.openSync(abs, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    return { bytes: fs.readFileSync(fd), mtimeMs: st.mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/** The note's own frontmatter flags (`sensitive: true`, `memvault: local-only`), read the way the chunker reads them. */
function flaggedSensitive(bytes: Buffer): boolean {
  const text = new TextDecoder('utf-8').decode(bytes).replace(/\r\n?/g, '\n');
  return frontmatterFlagsSensitive(readFrontmatter(text.split('\n')));
}

/** Text of an existing note for merging, or null when it is not UTF-8 (then the new content is written as is). */
function decodeExisting(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Applies agent mutations to the vault. Checks run in this order, all before any disk change: path(s) → size →
 * content → existence → sensitivity → expected mtime/hash → frontmatter merge; then the atomic write.
 *
 * Not safe for concurrent use: the check-then-write sequence assumes one mutation at a time, so every caller must go
 * through a single serialising actor (the git writer).
 *
 * Sensitivity (`sensitive`): writes never return content, so they are refused only where they would reveal it to a
 * caller without `mayReadSensitive` — overwriting a sensitive note (the merge carries its frontmatter into content
 * the agent controls), checking an `expectedHash` against it (a guess-confirming oracle), or moving it from a
 * sensitive path to one that is not (its content would become readable there). Creating a note at a sensitive path,
 * deleting one, and moving one within sensitive paths are allowed; a move then returns no content hash.
 */
export class VaultWriter {
  readonly #root: string;
  readonly #allowlist: string[];
  readonly #maxBytes: number;
  readonly #sensitivePath: (rel: string) => boolean;
  readonly #reserved: (rel: string) => boolean;

  constructor(opts: VaultWriterOptions) {
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)
      throw new TypeError(`maxBytes must be a positive integer, got ${String(opts.maxBytes)}`);
    if (typeof opts.root !== 'string' || opts.root === '') throw new TypeError('root must be the path of the vault folder');
    for (const entry of opts.allowlist) {
      // An allowlisted name must itself pass the path rules, or no note could ever be written under it.
      const probe = checkVaultPath(`${entry}/probe.md`, [entry.normalize('NFC')]);
      if (!probe.ok || entry.includes('/'))
        throw new TypeError(
          `allowlist entries must be plain top-level folder names; '${entry}' is not (${probe.ok ? "it holds a '/'" : probe.message})`,
        );
    }
    this.#root = opts.root;
    this.#allowlist = opts.allowlist.map((a) => a.normalize('NFC'));
    this.#maxBytes = maxBytes;
    this.#sensitivePath = opts.isSensitive ?? (() => false);
    this.#reserved = opts.reserved ?? (() => false);
  }

  /** Checks and applies one mutation; expected failures come back as data, bugs throw. */
  async apply(op: VaultOp, caller: ApplyCaller): Promise<ApplyResult> {
    try {
      fs.realpathSync.native(this.#root);
    } catch (err) {
      return fail(
        'unavailable',
        `the vault folder '${this.#root}' cannot be reached (${(err as NodeJS.ErrnoException).code ?? 'error'}); check that it exists and is mounted, then retry`,
      );
    }
    try {
      return await this.#apply(op, caller.mayReadSensitive === true, caller.privileged === true, caller.beforeWrite, caller.folderSync);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        // its own reason: unlike a passing `unavailable`, retrying is useless until someone frees space
        return fail(
          'disk_full',
          `the vault's disk is full (${code}): nothing was changed; free some space on the disk holding ${this.#root}, then retry`,
        );
      }
      if (code !== undefined && ENVIRONMENT.has(code)) {
        return fail(
          'unavailable',
          `the vault could not be changed (${code}: ${(err as Error).message}); check disk space and permissions, then retry`,
        );
      }
      throw err;
    }
  }

  #resolve(input: string, privileged = false): ReturnType<typeof resolveVaultPath> {
    return resolveVaultPath(this.#root, input, { allowlist: this.#allowlist, reserved: this.#reserved, privileged });
  }

  async #apply(
    op: VaultOp,
    mayRead: boolean,
    privileged: boolean,
    beforeWrite?: ApplyCaller['beforeWrite'],
    folderSync?: ApplyCaller['folderSync'],
  ): Promise<ApplyResult> {
    if (privileged && op.op !== 'write') throw new Error('the memory tools only append (a privileged write)');
    switch (op.op) {
      case 'write': {
        const target = this.#resolve(op.path, privileged);
        if (!target.ok) return target;
        // a day log grows past an agent write's cap; what one fact adds is capped by the memory tool itself
        if (typeof op.content === 'string' && !privileged) {
          const size = Buffer.byteLength(op.content, 'utf8');
          if (size > this.#maxBytes) {
            return fail(
              'too_large',
              `content is ${size} bytes in UTF-8, over the ${this.#maxBytes}-byte limit; split it into several smaller notes`,
            );
          }
        }
        const bad = contentProblem(op.content);
        if (bad !== null) return fail('invalid_content', bad);
        const current = await readCurrent(target.abs);
        if (current && !mayRead && this.#isSensitive(target.rel, current)) {
          return fail(
            'sensitive',
            `'${target.rel}' is a sensitive note and this agent may not read sensitive notes, so it may not overwrite it (the merge would carry its frontmatter over); write a new note instead`,
          );
        }
        const stale = staleness(target, current, op);
        if (stale) return stale;
        const merged = mergeFrontmatter(current ? decodeExisting(current.bytes) : null, op.content);
        if ('reason' in merged) return merged;
        const bytes = Buffer.from(merged.text, 'utf8');
        // the note already holds exactly these bytes: leave the file (and its mtime) alone, an idempotent write
        if (current?.bytes.equals(bytes)) return { ok: true, paths: [target.rel], mtimeMs: current.mtimeMs, contentHash: sha256Hex(bytes) };
        const full = await this.#lowOnSpace(bytes.length);
        if (full) return full;
        const contentHash = sha256Hex(bytes);
        const written = await atomicWriteFile(target.abs, bytes, async () => beforeWrite?.(contentHash), folderSync);
        return { ok: true, paths: [target.rel], mtimeMs: written.mtimeMs, contentHash };
      }
      case 'delete': {
        const target = this.#resolve(op.path);
        if (!target.ok) return target;
        const current = await readCurrent(target.abs);
        if (!current)
          return fail(
            'missing',
            `'${target.rel}' does not exist, so there is nothing to delete; check the path (search or list the folder)`,
          );
        if (!mayRead && op.expectedHash !== undefined && this.#isSensitive(target.rel, current)) return hashOracle(target.rel);
        const stale = staleness(target, current, op);
        if (stale) return stale;
        const removed = await removeFile(target.abs);
        if (!removed.ok) return removed;
        return { ok: true, paths: [target.rel], mtimeMs: null, contentHash: null };
      }
      case 'move': {
        const from = this.#resolve(op.from);
        if (!from.ok) return from;
        const to = this.#resolve(op.to);
        if (!to.ok) return to;
        if (from.rel === to.rel) return fail('exists', `'from' and 'to' are the same note ('${to.rel}'); give a new path to move it to`);
        const current = await readCurrent(from.abs);
        if (!current)
          return fail('missing', `'${from.rel}' does not exist, so there is nothing to move; check the path (search or list the folder)`);
        if (fs.lstatSync(to.abs, { throwIfNoEntry: false }) !== undefined) {
          return fail('exists', `'${to.rel}' already exists; move to a new name, or delete that note first`);
        }
        const sensitive = this.#isSensitive(from.rel, current);
        if (!mayRead && sensitive) {
          if (op.expectedHash !== undefined) return hashOracle(from.rel);
          if (!flaggedSensitive(current.bytes) && !this.#sensitivePath(to.rel)) {
            return fail(
              'sensitive',
              `'${from.rel}' is sensitive by its location and '${to.rel}' is not, so the move would expose it to agents that may not read sensitive notes; move it within a sensitive folder`,
            );
          }
        }
        const stale = staleness(from, current, op);
        if (stale) return stale;
        const full = await this.#lowOnSpace(0);
        if (full) return full;
        const moved = await moveFile(from.abs, to.abs);
        if (!moved.ok) return moved;
        const st = await stat(to.abs);
        return {
          ok: true,
          paths: [from.rel, to.rel],
          mtimeMs: st.mtimeMs,
          contentHash: !mayRead && sensitive ? null : sha256Hex(current.bytes),
        };
      }
      default:
        return assertNever(op);
    }
  }

  /** `disk_full` when the vault's disk could not hold `bytes` more and still leave room for the commit. */
  async #lowOnSpace(bytes: number): Promise<Failure<WriteFailReason> | null> {
    const st = fs.statfsSync(this.#root);
    const free = st.bavail * st.bsize;
    if (free >= bytes + MIN_FREE_BYTES) return null;
    return fail(
      'disk_full',
      `the vault's disk is nearly full (${free} bytes free; this change needs ${bytes} plus ${MIN_FREE_BYTES} for its commit): nothing was changed; free some space on the disk holding ${this.#root}, then retry`,
    );
  }

  #isSensitive(rel: string, current: Current): boolean {
    return this.#sensitivePath(rel) || flaggedSensitive(current.bytes);
  }
}

function hashOracle(rel: string): Failure<WriteFailReason> {
  return fail(
    'sensitive',
    `'${rel}' is a sensitive note and this agent may not read sensitive notes, so expectedHash cannot be checked against it (that would confirm guesses of its content); use expectedMtime instead`,
  );
}

/** `conflict` when the caller's expected mtime or hash no longer describes the note (or the note is gone). */
function staleness(
  target: ResolvedPath,
  current: Current | null,
  op: { expectedMtime?: number; expectedHash?: string },
): Failure<WriteFailReason> | null {
  if (op.expectedMtime === undefined && op.expectedHash === undefined) return null;
  if (!current)
    return fail(
      'conflict',
      `'${target.rel}' does not exist, but an expected mtime/hash was given; read the vault again, or leave them out to create the note`,
    );
  if (op.expectedMtime !== undefined && current.mtimeMs !== op.expectedMtime) {
    return fail(
      'conflict',
      `'${target.rel}' changed since you read it (mtime is ${current.mtimeMs}, you expected ${op.expectedMtime}); read it again and re-apply your change`,
    );
  }
  if (op.expectedHash !== undefined && sha256Hex(current.bytes) !== op.expectedHash.toLowerCase()) {
    return fail(
      'conflict',
      `'${target.rel}' changed since you read it (its sha256 is no longer ${op.expectedHash}); read it again and re-apply your change`,
    );
  }
  return null;
}
