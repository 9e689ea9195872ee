// The spawner process: runs the git writer's git commands for it, so the daemon never forks itself. Every fork of
// the daemon write-protects all of its memory, and each thread then faults page by page (measured: a thread
// touching 200 MB went from ~170 passes/s to under 1 with 10 spawns/s); the embedding threads slowed ~100×.
// Forked once per git-writer incarnation; exits when its parent goes (IPC disconnect), even after a kill -9.
import { spawn } from 'node:child_process';
import type { FastCommitOutcome, FastCommitRequest, SpawnOutcome, SpawnReply, SpawnRequest } from './spawner.js';
import { FastCommitter } from './fast-commit.js';

process.on('disconnect', () => process.exit(0));

function run(req: SpawnRequest): void {
  const reply = (r: SpawnOutcome): void => {
    const msg: SpawnReply = { ...r, id: req.id };
    process.send?.(msg);
  };
  let child;
  try {
    child = spawn(req.file, req.args, { cwd: req.cwd, env: req.env, stdio: 'pipe' });
  } catch (err) {
    reply({ kind: 'error', code: (err as NodeJS.ErrnoException).code ?? null, message: String(err) });
    return;
  }
  const out: Buffer[] = [];
  const errs: Buffer[] = [];
  let failed = false;
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => errs.push(b));
  child.on('error', (err: NodeJS.ErrnoException) => {
    failed = true;
    reply({ kind: 'error', code: err.code ?? null, message: err.message });
  });
  child.on('close', (code) => {
    if (failed) return;
    reply({ kind: 'exit', code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(errs).toString('utf8') });
  });
  child.stdin.on('error', () => {}); // EPIPE when the command exits before reading: its exit code tells the story
  if (req.input === undefined) child.stdin.end();
  else child.stdin.end(req.input);
}

// One set of long-lived git processes per repository (and settings), children of this process like every git.
const committers = new Map<string, FastCommitter>();

async function fastCommit(req: FastCommitRequest): Promise<void> {
  const key = JSON.stringify([req.root, req.gitDir, req.commonDir, req.objectsDir, req.indexFile, req.hexLen, req.env]);
  let c = committers.get(key);
  if (!c) {
    c = new FastCommitter(req);
    committers.set(key, c);
  }
  let out: FastCommitOutcome;
  try {
    out = { kind: 'fast', results: await c.commitBatch(req.items, req.who) };
  } catch (err) {
    out = { kind: 'error', code: null, message: (err as Error).message };
  }
  process.send?.({ ...out, id: req.id });
}

process.on('message', (req: SpawnRequest | FastCommitRequest) => {
  if ('kind' in req && req.kind === 'fast_commit') void fastCommit(req);
  else run(req as SpawnRequest);
});
