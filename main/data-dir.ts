// The data dir before any actor starts: made private (0700), the owner token (0600), the index schema migrated.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/load.js';
import { indexFile } from '../supervisors/runtime/boot.js';
import { isDamagedIndex, openIndex } from '../actors/store-writer/schema.js';

/** Creates `<data dir>/token` (0600) on first start; returns the token. */
export function ensureToken(dataDir: string): string {
  const file = path.join(dataDir, 'token');
  if (!existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, randomBytes(32).toString('base64url') + '\n', { mode: 0o600 });
    renameSync(tmp, file);
  }
  chmodSync(file, 0o600);
  return readFileSync(file, 'utf8').trim();
}

/**
 * Creates the data dir, the token and the index schema. An index file SQLite cannot read (a disk that lost its tail,
 * garbage written over it) is moved aside, with its WAL, to `<file>.damaged-<ms>` and a new one is made: the index is
 * rebuilt from the vault and the episode journal, where it used to stop every start (and `reindex`) with
 * `database disk image is malformed`. `damaged` names the file kept aside, for the start to log.
 */
export function prepareDataDir(cfg: Config, dbFile = indexFile(cfg)): { dbFile: string; token: string; damaged: string | null } {
  mkdirSync(cfg.data_dir, { recursive: true, mode: 0o700 });
  const token = ensureToken(cfg.data_dir);
  let damaged: string | null = null;
  try {
    openIndex(dbFile, { readonly: false }).close(); // creates and migrates the schema before any reader opens it
  } catch (err) {
    if (!isDamagedIndex(err)) throw err;
    damaged = setAsideIndex(dbFile);
    openIndex(dbFile, { readonly: false }).close();
  }
  return { dbFile, token, damaged };
}

/** Moves the index file, with its WAL, to `<file>.damaged-<ms>` (kept, not deleted); answers that name. */
export function setAsideIndex(dbFile: string): string {
  const damaged = `${dbFile}.damaged-${Date.now()}`;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(dbFile + suffix)) renameSync(dbFile + suffix, damaged + suffix);
  return damaged;
}
