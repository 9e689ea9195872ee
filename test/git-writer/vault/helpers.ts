// Test helpers for the vault writer: a real temp vault with a sentinel outside it, and byte-level tree snapshots.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VaultWriter } from '../../../actors/git-writer/vault/vault-writer.js';
import type { VaultWriterOptions } from '../../../actors/git-writer/vault/types.js';

export interface Teardown {
  teardown(fn: () => void): void;
}

export const ALLOWLIST = ['Inbox', 'Meetings'];
export const AGENT = { agent: 'test-agent', reason: 'test' };
export const SENTINEL_TEXT = 'outside the vault: must never change\n';

export interface Sandbox {
  /** the temp folder holding both the vault and `outside/` */
  top: string;
  vault: string;
  /** the vault's real path (tmpdir may itself sit behind a symlink) */
  realVault: string;
  outside: string;
  sentinel: string;
}

/**
 * `top/vault` with Inbox, Meetings, Secrets, .git and .obsidian folders and one note, and `top/outside/sentinel.md`;
 * removed when the test ends.
 */
export function sandbox(t: Teardown): Sandbox {
  const top = mkdtempSync(path.join(tmpdir(), 'memvault-vw-'));
  t.teardown(() => rmSync(top, { recursive: true, force: true }));
  const vault = path.join(top, 'vault');
  const outside = path.join(top, 'outside');
  for (const d of ['Inbox', 'Meetings', 'Secrets', '.git', '.obsidian']) mkdirSync(path.join(vault, d), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(vault, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(vault, 'Inbox', 'existing.md'), '---\ntitle: Existing\n---\nexisting body\n');
  const sentinel = path.join(outside, 'sentinel.md');
  writeFileSync(sentinel, SENTINEL_TEXT);
  return { top, vault, realVault: realpathSync(vault), outside, sentinel };
}

export function writerFor(s: Sandbox, opts: Partial<VaultWriterOptions> = {}): VaultWriter {
  return new VaultWriter({ root: s.vault, allowlist: ALLOWLIST, ...opts });
}

/** Every entry under `dir` (not following symlinks) with its type, bytes' hash, mode, mtime or link target. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const r = rel === '' ? name : `${rel}/${name}`;
      const abs = path.join(dir, r);
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out[r] = `link -> ${readlinkSync(abs)}`;
      else if (st.isDirectory()) {
        out[r] = `dir ${st.mode.toString(8)}`;
        walk(r);
      } else out[r] = `file ${st.mode.toString(8)} ${st.mtimeMs} ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`;
    }
  };
  walk('');
  return out;
}

/** Names of leftover temp files (`.<name>.<random>.tmp`) anywhere under `dir`. */
export function tempFiles(dir: string): string[] {
  return Object.keys(snapshot(dir)).filter((p) => /(^|\/)\.[^/]*\.tmp$/.test(p));
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
