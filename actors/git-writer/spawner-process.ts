// The spawner process: runs the git writer's git commands for it, so the daemon never forks itself. Every fork of
// the daemon write-protects all of its memory, and each thread then faults page by page (measured: a thread
// touching 200 MB went from ~170 passes/s to under 1 with 10 spawns/s); the embedding threads slowed ~100×.
// Forked by whoever asks (spawner.ts) and answering over IPC; or, with `--listen-fd N`, the daemon's one spawner,
// forked by main, answering each actor thread that connects to the listening socket it was handed (fd N). Exits when
// its parent goes (IPC disconnect), even after a kill -9.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { FastCommitOutcome, FastCommitReply, FastCommitRequest, SpawnOutcome, SpawnReply, SpawnRequest } from './spawner.js';
import { FastCommitter } from './fast-commit.js';
import { readFrames, writeFrame } from './frames.js';

process.on('disconnect', () => process.exit(0));

/** Who asked: where its answers go, and its long-lived git processes (one set per repository and settings). */
interface Asker {
  reply: (r: SpawnReply | FastCommitReply) => void;
  committers: Map<string, FastCommitter>;
}

function run(req: SpawnRequest, asker: Asker): void {
  const reply = (r: SpawnOutcome): void => asker.reply({ ...r, id: req.id });
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

async function fastCommit(req: FastCommitRequest, asker: Asker): Promise<void> {
  const key = JSON.stringify([req.root, req.gitDir, req.commonDir, req.objectsDir, req.indexFile, req.hexLen, req.env]);
  let c = asker.committers.get(key);
  if (!c) {
    c = new FastCommitter(req);
    asker.committers.set(key, c);
  }
  let out: FastCommitOutcome;
  try {
    out = { kind: 'fast', results: await c.commitBatch(req.items, req.who) };
  } catch (err) {
    out = { kind: 'error', code: null, message: (err as Error).message };
  }
  asker.reply({ ...out, id: req.id });
}

function serve(req: SpawnRequest | FastCommitRequest, asker: Asker): void {
  if ('kind' in req && req.kind === 'fast_commit') void fastCommit(req, asker);
  else run(req as SpawnRequest, asker);
}

const listenFd = process.argv.indexOf('--listen-fd');
if (listenFd >= 0) {
  createServer((sock) => {
    const asker: Asker = { reply: (r) => (sock.writable ? writeFrame(sock, r) : undefined), committers: new Map() };
    readFrames(sock, (req) => serve(req as SpawnRequest | FastCommitRequest, asker));
    sock.on('error', () => {}); // the actor's thread ended mid-answer: 'close' follows
    writeFrame(sock, { id: 0 }); // served from now on: the asking side sends its commands after this
    // that actor thread is gone (a restart, a stop): its long-lived gits see their input end and exit, as they did when
    // a spawner of its own exited with it; a command still running finishes unanswered
    sock.on('close', () => {
      for (const c of asker.committers.values()) c.close();
    });
  }).listen({ fd: Number(process.argv[listenFd + 1]) });
} else {
  const asker: Asker = { reply: (r) => process.send?.(r), committers: new Map() };
  process.on('message', (req: SpawnRequest | FastCommitRequest) => serve(req, asker));
}
