// What the vault may hold, per path, given the ledger: one state after an acknowledged op, two or more while an op
// is unacknowledged (the kill landed before its answer). Reset to what is on disk after each checked restart.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sha256, type Possible } from './ledger.js';

const run = promisify(execFile);

/** A file's bytes at `rev` (a commit), or null when it is not in that tree. */
export async function gitBlob(vault: string, rev: string, rel: string): Promise<Buffer | null> {
  try {
    const r = await run('git', ['show', `${rev}:${rel}`], {
      cwd: vault,
      encoding: 'buffer',
      maxBuffer: 64 << 20,
      env: { ...process.env, GIT_LITERAL_PATHSPECS: '0' },
    });
    return r.stdout;
  } catch {
    return null;
  }
}

/** Hashes of every version of `rel` in HEAD's history, plus null (deleted at some point or never there). */
export async function historyHashes(vault: string, rel: string): Promise<Possible> {
  const out: Possible = new Set([null]);
  const r = await run('git', ['log', '--format=%H', 'HEAD', '--', rel], { cwd: vault, maxBuffer: 16 << 20 });
  for (const sha of r.stdout.split('\n').filter(Boolean)) {
    const b = await gitBlob(vault, sha, rel);
    out.add(b === null ? null : sha256(b));
  }
  return out;
}

export class Model {
  /** Path → the content hashes it may have (null: absent). A path not here must not exist. */
  readonly expect = new Map<string, Possible>();
  /** Path → the agent that owns it (agents write only under Inbox/<agent>/). */
  readonly owner = new Map<string, string>();
  /** Agents with an unacknowledged undo this cycle: their paths may hold any version from history. */
  readonly looseAgents = new Set<string>();

  set(rel: string, hash: string | null): void {
    this.expect.set(rel, new Set([hash]));
  }

  maybe(rel: string, hash: string | null): void {
    const s = this.expect.get(rel) ?? new Set<string | null>([null]);
    s.add(hash);
    this.expect.set(rel, s);
  }

  /** Paths of `agent` that may exist now. */
  agentPaths(agent: string): string[] {
    const out: string[] = [];
    for (const [p, a] of this.owner) if (a === agent && [...(this.expect.get(p) ?? [])].some((h) => h !== null)) out.push(p);
    return out;
  }
}
