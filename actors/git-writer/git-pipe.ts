// One long-lived git process driven over its pipes (`cat-file --batch`, `hash-object --stdin-paths`, `mktree
// --batch`, `update-ref --stdin`, …): a request is bytes written to its stdin, its answer is parsed off stdout in
// order. Saves a process start (~10 ms here) per command. Started on first use and again after it dies; a request
// in flight when it dies is rejected with its stderr. Holds the event loop open only while a request is pending.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** Reads one answer off the front of `buf`: the value and the bytes it used, or null while the answer is incomplete. */
export type Parser<T> = (buf: Buffer) => { value: T; used: number } | null;

interface Pending {
  parse: Parser<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** `n` newline-terminated lines, without their newlines. */
export function lines(n: number): Parser<string[]> {
  return (buf) => {
    const out: string[] = [];
    let at = 0;
    while (out.length < n) {
      const nl = buf.indexOf(10, at);
      if (nl < 0) return null;
      out.push(buf.subarray(at, nl).toString('utf8'));
      at = nl + 1;
    }
    return { value: out, used: at };
  };
}

/** `n` NUL-terminated fields. */
export function fields(n: number): Parser<string[]> {
  return (buf) => {
    const out: string[] = [];
    let at = 0;
    while (out.length < n) {
      const z = buf.indexOf(0, at);
      if (z < 0) return null;
      out.push(buf.subarray(at, z).toString('utf8'));
      at = z + 1;
    }
    return { value: out, used: at };
  };
}

export class GitPipe {
  #child: ChildProcessWithoutNullStreams | null = null;
  #buf: Buffer = Buffer.alloc(0);
  #stderr = '';
  readonly #pending: Pending[] = [];

  constructor(
    readonly cwd: string,
    readonly args: readonly string[],
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Writes `input` and resolves with what `parse` reads back; rejects if git dies first. */
  request<T>(input: string | Buffer, parse: Parser<T>): Promise<T> {
    const child = this.#start();
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ parse, resolve: resolve as (v: unknown) => void, reject });
      this.#refs();
      child.stdin.write(input);
    });
  }

  /** The process id, if running (tests check it is a child of ours and not a zombie). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Closes stdin: git finishes and exits. */
  close(): void {
    this.#child?.stdin.end();
  }

  #start(): ChildProcessWithoutNullStreams {
    if (this.#child) return this.#child;
    const child = spawn('git', this.args, { cwd: this.cwd, env: { ...this.env, GIT_FLUSH: '1' }, stdio: 'pipe' });
    this.#child = child;
    this.#buf = Buffer.alloc(0);
    this.#stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      this.#buf = this.#buf.length === 0 ? b : Buffer.concat([this.#buf, b]);
      this.#drain();
    });
    child.stderr.on('data', (b: Buffer) => {
      this.#stderr = (this.#stderr + b.toString('utf8')).slice(-2000);
    });
    child.stdin.on('error', () => {}); // EPIPE after git died: its exit rejects what is pending
    const gone = (why: string): void => {
      if (this.#child !== child) return;
      this.#child = null;
      const err = new Error(`git ${this.args.join(' ')} ${why}: ${this.#stderr.trim() || 'no output'}`);
      for (const p of this.#pending.splice(0)) p.reject(err);
    };
    child.on('error', (e) => gone(`could not run (${e.message})`));
    child.on('close', (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
    return child;
  }

  #drain(): void {
    for (let p = this.#pending[0]; p; p = this.#pending[0]) {
      const r = p.parse(this.#buf);
      if (r === null) break;
      this.#pending.shift();
      this.#buf = this.#buf.subarray(r.used);
      p.resolve(r.value);
    }
    this.#refs();
  }

  /** An idle pipe must not keep its parent (a CLI, a test) alive. */
  #refs(): void {
    const c = this.#child;
    if (!c) return;
    const busy = this.#pending.length > 0;
    for (const h of [c, c.stdout, c.stderr, c.stdin] as { ref?: () => void; unref?: () => void }[]) {
      if (busy) h.ref?.();
      else h.unref?.();
    }
  }
}
