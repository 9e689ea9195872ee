// The invariants checked after each kill -9 and restart: acknowledged commits kept, every path as the ledger allows,
// no torn notes or temp files, git sound and clean, the index equal to the vault. Each violation is one line.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_IGNORE } from '../../../config/schema.js';
import { openIndex } from '../../../actors/store-writer/schema.js';
import { IndexReader } from '../../../actors/store-writer/index-reader.js';
import { makeIgnore, scanVault } from '../../../actors/watcher/scan.js';
import { sha256, sumOk, type Ledger } from './ledger.js';
import { historyHashes, type Model } from './model.js';
import { until } from './daemon-process.js';

const run = promisify(execFile);
const TEMP = /^\..+\.[0-9a-f]{12}\.tmp$/;

export interface CheckResult {
  problems: string[];
  /** Acknowledged writes whose effect is gone (a subset of the problems). */
  lost: number;
}

async function git(vault: string, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await run('git', args, { cwd: vault, maxBuffer: 64 << 20, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } });
    return { code: 0, out: `${r.stdout}${r.stderr}` };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** Every file under the vault (not .git), vault-relative. */
function walk(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (r !== '.git' && r !== '.memvault') out.push(...walk(root, r));
    } else out.push(r);
  }
  return out;
}

const show = (h: string | null) => (h === null ? 'absent' : h.slice(0, 12));

/** Waits (bounded) until `git status --porcelain` is empty: the person's edits are committed after the quiet period. */
export async function awaitGitClean(vault: string, timeoutMs: number): Promise<string | null> {
  let last = '';
  try {
    await until(
      'git status to be clean',
      timeoutMs,
      async () => {
        last = (await git(vault, ['status', '--porcelain', '--untracked-files=all'])).out.trim();
        return last === '' ? true : undefined;
      },
      100,
    );
    return null;
  } catch {
    return last;
  }
}

export async function checkInvariants(o: {
  vault: string;
  dataDir: string;
  ledger: Ledger;
  model: Model;
  cycle: number;
}): Promise<CheckResult> {
  const { vault, ledger, model } = o;
  const problems: string[] = [];
  const lostOps = new Set<number>(); // an op lost two ways (commit gone, note gone) counts once
  const say = (s: string) => problems.push(`cycle ${o.cycle}: ${s}`);

  // 1. every acknowledged commit exists and is an ancestor of HEAD
  const history = new Set((await git(vault, ['rev-list', 'HEAD'])).out.split('\n').filter(Boolean));
  for (const op of ledger.agentOps) {
    if (op.outcome?.kind !== 'acked' || !op.outcome.commit) continue;
    if (!history.has(op.outcome.commit)) {
      lostOps.add(op.seq);
      say(
        `acknowledged ${op.tool} #${op.seq} by ${op.agent} (${op.path ?? op.outcome.paths.join(', ')}) committed ${op.outcome.commit.slice(0, 12)}, which is not in HEAD's history`,
      );
    }
  }

  // an unacknowledged undo may have reverted any earlier version of that agent's notes
  for (const agent of model.looseAgents) {
    for (const [p, a] of model.owner) if (a === agent) for (const h of await historyHashes(vault, p)) model.maybe(p, h);
  }

  // 2. per path, the disk holds what the ledger allows; 3. no torn notes, temp or swap files
  const files = walk(vault);
  const onDisk = new Map<string, string>();
  for (const f of files) {
    const base = path.basename(f);
    if (TEMP.test(base)) say(`leftover atomic-write temp file ${f}`);
    else if (base.endsWith('.swp')) say(`leftover swap file ${f}`);
    if (!f.endsWith('.md')) continue;
    const bytes = readFileSync(path.join(vault, f));
    onDisk.set(f, sha256(bytes));
    if ((f.startsWith('Inbox/') || f.startsWith('Daily/')) && !sumOk(bytes))
      say(`torn note ${f}: its checksum line does not match its content`);
  }
  for (const b of ledger.bulk) {
    const h = onDisk.get(b.path);
    if (h !== undefined && h !== sha256(readFileSync(b.source))) say(`bulk file ${b.path} differs from its source ${b.source}`);
  }
  for (const [p, allowed] of model.expect) {
    const h = onDisk.get(p) ?? null;
    if (allowed.has(h)) continue;
    const last = allowed.size === 1 ? [...ledger.agentOps].reverse().find((x) => x.path === p) : undefined;
    if (last?.outcome?.kind === 'acked') lostOps.add(last.seq);
    say(`${p} is ${show(h)} on disk; the ledger allows ${[...allowed].map(show).join(' or ')}`);
  }
  for (const p of onDisk.keys()) {
    if (p.startsWith('Inbox/') || p.startsWith('Daily/') || p.startsWith('Projects/bulk-')) {
      if (!model.expect.has(p)) say(`${p} is on disk but no op of the load made it`);
    }
  }

  // 2b. an agent's write that reached the disk but not its answer is recorded as that agent's (so it can undo it),
  // not swept into the person's commit at the next start
  for (const op of ledger.cycleAgentOps(o.cycle)) {
    if (op.tool !== 'vault_write' || op.outcome?.kind !== 'unknown' || !op.path || onDisk.get(op.path) !== op.sentHash) continue;
    const last = (
      await git(vault, ['log', '-1', '--format=%H %(trailers:key=Memvault-Agent,valueonly,separator=%x2C)', 'HEAD', '--', op.path])
    ).out.trim();
    const [sha = '', agent = ''] = last.split(' ');
    if (agent !== op.agent)
      say(
        `${op.path}: ${op.agent}'s unacknowledged write is on disk but commit ${sha.slice(0, 12)} records it as ${agent === '' ? 'the person' : agent}, so the agent cannot undo it`,
      );
  }

  // 4. git is sound and clean
  const fsck = await git(vault, ['fsck', '--full', '--no-progress']);
  const bad = fsck.out.split('\n').filter((l) => l.trim() !== '' && !/^(dangling|notice)/.test(l));
  if (fsck.code !== 0 || bad.length > 0) say(`git fsck --full exited ${fsck.code}: ${bad.slice(0, 5).join(' | ')}`);
  const dirty = (await git(vault, ['status', '--porcelain', '--untracked-files=all'])).out.trim();
  if (dirty !== '') say(`git status is not clean after catch-up: ${dirty.split('\n').slice(0, 6).join(' | ')}`);

  // 5. the index equals the vault
  const { files: notes } = scanVault(vault, makeIgnore(DEFAULT_IGNORE));
  const want = new Map<string, string>();
  for (const n of notes) want.set(n.path, sha256(readFileSync(path.join(vault, n.path))));
  const db = openIndex(path.join(o.dataDir, 'index.sqlite'), { readonly: true, cacheMiB: 4 });
  try {
    const rows = db
      .prepare(`SELECT source_id AS p, content_hash AS h FROM memory_documents WHERE source_type = 'vault' AND deleted_at IS NULL`)
      .all() as { p: string; h: string }[];
    const have = new Map(rows.map((r) => [r.p, r.h]));
    for (const [p, h] of want) {
      const got = have.get(p);
      if (got === undefined) say(`index is missing ${p}`);
      else if (got !== h) say(`index holds ${p} at ${show(got)}, the file is ${show(h)}`);
    }
    for (const p of have.keys()) if (!want.has(p)) say(`index keeps a ghost of ${p}, which is not in the vault`);
    const c = new IndexReader(db).consistency();
    for (const [k, v] of Object.entries(c)) if (v !== 0) say(`index consistency: ${k} = ${v}`);
  } finally {
    db.close();
  }

  // the next cycle starts from what is on disk now (each path was checked against its possibilities above)
  for (const p of model.expect.keys()) model.set(p, onDisk.get(p) ?? null);
  model.looseAgents.clear();
  return { problems, lost: lostOps.size };
}
