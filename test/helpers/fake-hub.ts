// A model hub on loopback with Hugging Face's file layout and headers — a fixture of an external service, not a mock
// of ours: `/<org>/<name>/resolve/<revision>/<file>`, X-Repo-Commit, git-blob ETags for small files and a 302 to a
// "CDN" host (localhost vs 127.0.0.1) with X-Linked-Size / X-Linked-Etag (sha256) for LFS ones, Range and If-Range,
// X-Error-Code on 404s, a relative 307 for a renamed repository. Tests add faults: a cut-off body, corrupt bytes, a
// held response, no Range support.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HubRequest {
  method: string;
  path: string;
  range: string | null;
  ifRange: string | null;
}

interface Repo {
  commit: string;
  files: Map<string, Buffer>;
  /** Branch and tag names that resolve to `commit`. */
  refs: Set<string>;
}

/** Stored in LFS on the real hub (weights): served through the CDN redirect with X-Linked-* headers. */
const isLfs = (file: string) => /\.(onnx|onnx_data|bin|safetensors)$/.test(file);

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const gitBlob = (b: Buffer) => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');

export class FakeHub {
  readonly requests: HubRequest[] = [];
  readonly #repos = new Map<string, Repo>();
  readonly #renamed = new Map<string, string>();
  readonly #blobs = new Map<string, Buffer>(); // sha256 → bytes, the "CDN"
  readonly #truncate = new Map<string, { at: number; times: number }>();
  readonly #corrupt = new Map<string, number>();
  readonly #held = new Map<string, Promise<void>>();
  readonly #waiters: Array<{ match: (r: HubRequest) => boolean; resolve: () => void }> = [];
  #ignoreRange = false;
  #port = 0;

  private constructor(readonly server: Server) {}

  /** Listens on 127.0.0.1 (the CDN is the same server reached as localhost). */
  static async start(): Promise<FakeHub> {
    const server = createServer();
    const hub = new FakeHub(server);
    server.on('request', (req, res) => {
      hub.#handle(req, res).catch((err: unknown) => {
        res.destroy(err as Error);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    hub.#port = (server.address() as AddressInfo).port;
    return hub;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Publishes `files` as `<org>/<name>` at a new commit that `main` (and `refs`) point to; returns the commit. */
  publish(repo: string, files: Record<string, Buffer>, refs: string[] = ['main']): string {
    const commit = randomBytes(20).toString('hex');
    this.#repos.set(repo, { commit, files: new Map(Object.entries(files)), refs: new Set(refs) });
    for (const b of Object.values(files)) this.#blobs.set(sha256(b), b);
    return commit;
  }

  /** `from` now answers with a relative redirect to `to`, as the hub does for a renamed repository. */
  rename(from: string, to: string): void {
    this.#renamed.set(from, to);
  }

  /** The next `times` downloads of `file` send their headers, then stop after `at` bytes (the connection drops). */
  truncate(file: string, at: number, times = 1): void {
    this.#truncate.set(file, { at, times });
  }

  /** The next `times` downloads of `file` carry one flipped byte (the ETag still names the right content). */
  corrupt(file: string, times = 1): void {
    this.#corrupt.set(file, times);
  }

  /** Downloads of `file` wait until the returned function is called. */
  hold(file: string): () => void {
    let release!: () => void;
    this.#held.set(file, new Promise<void>((r) => (release = r)));
    return () => {
      this.#held.delete(file);
      release();
    };
  }

  /** Serve whole files (200) even when a Range is asked for, as servers without range support do. */
  ignoreRange(on = true): void {
    this.#ignoreRange = on;
  }

  /** Resolves once a request whose path includes `part` (and of `method`) has arrived. */
  requested(part: string, method?: string): Promise<void> {
    const match = (r: HubRequest) => r.path.includes(part) && (!method || r.method === method);
    if (this.requests.some(match)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  /** Requests whose path includes `part` (e.g. a file name), optionally only GETs. */
  count(part: string, method?: string): number {
    return this.requests.filter((r) => r.path.includes(part) && (!method || r.method === method)).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const path = decodeURIComponent(url.pathname);
    const seen: HubRequest = {
      method: req.method ?? 'GET',
      path,
      range: req.headers.range ?? null,
      ifRange: (req.headers['if-range'] as string | undefined) ?? null,
    };
    this.requests.push(seen);
    for (const w of this.#waiters.filter((x) => x.match(seen))) {
      this.#waiters.splice(this.#waiters.indexOf(w), 1);
      w.resolve();
    }
    const cdn = /^\/cdn\/([0-9a-f]{64})\/(.+)$/.exec(path);
    if (cdn) return this.#serveBytes(req, res, cdn[2]!, this.#blobs.get(cdn[1]!), cdn[1]!);
    const m = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (!m) return this.#error(res, 404, 'RepoNotFound');
    const [repoId, rev, file] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!), decodeURIComponent(m[3]!)];
    const to = this.#renamed.get(repoId);
    if (to) {
      res.writeHead(307, { location: `/${to}/resolve/${m[2]}/${m[3]}` });
      return void res.end();
    }
    const repo = this.#repos.get(repoId);
    if (!repo) return this.#error(res, 404, 'RepoNotFound');
    if (!repo.refs.has(rev) && rev !== repo.commit) return this.#error(res, 404, 'RevisionNotFound');
    const bytes = repo.files.get(file);
    if (!bytes) return this.#error(res, 404, 'EntryNotFound', repo.commit);
    if (isLfs(file)) {
      const sha = sha256(bytes);
      res.writeHead(302, {
        location: `http://localhost:${this.#port}/cdn/${sha}/${encodeURIComponent(file)}`,
        'x-repo-commit': repo.commit,
        'x-linked-size': String(bytes.length),
        'x-linked-etag': `"${sha}"`,
        etag: `"${gitBlob(Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${sha}\nsize ${bytes.length}\n`))}"`,
        'content-length': '0',
      });
      return void res.end();
    }
    return this.#serveBytes(req, res, file, bytes, gitBlob(bytes), { 'x-repo-commit': repo.commit });
  }

  #error(res: ServerResponse, status: number, code: string, commit?: string): void {
    res.writeHead(status, { 'x-error-code': code, 'content-type': 'application/json', ...(commit ? { 'x-repo-commit': commit } : {}) });
    res.end(JSON.stringify({ error: code }));
  }

  async #serveBytes(
    req: IncomingMessage,
    res: ServerResponse,
    file: string,
    bytes: Buffer | undefined,
    etag: string,
    extra: Record<string, string> = {},
  ): Promise<void> {
    if (!bytes) return this.#error(res, 404, 'EntryNotFound');
    const head = { etag: `"${etag}"`, 'accept-ranges': this.#ignoreRange ? 'none' : 'bytes', ...extra };
    if (req.method === 'HEAD') {
      res.writeHead(200, { ...head, 'content-length': String(bytes.length) });
      return void res.end();
    }
    await this.#held.get(file);
    let body = bytes;
    let status = 200;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    if (range && !this.#ignoreRange && (!ifRange || ifRange === `"${etag}"`)) {
      const start = Number(range[1]);
      if (start >= bytes.length) {
        res.writeHead(416, { 'content-range': `bytes */${bytes.length}` });
        return void res.end();
      }
      body = bytes.subarray(start);
      status = 206;
      Object.assign(head, { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` });
    }
    const corrupt = this.#corrupt.get(file) ?? 0;
    if (corrupt > 0) {
      this.#corrupt.set(file, corrupt - 1);
      body = Buffer.from(body);
      body[Math.floor(body.length / 2)] = body[Math.floor(body.length / 2)]! ^ 0xff;
    }
    res.writeHead(status, { ...head, 'content-length': String(body.length) });
    const cut = this.#truncate.get(file);
    if (cut && cut.times > 0) {
      cut.times--;
      const at = Math.max(0, cut.at - (bytes.length - body.length)); // `at` counts from the file's start
      res.write(body.subarray(0, at), () => res.destroy());
      return;
    }
    res.end(body);
  }
}

/** A loopback port nothing listens on: a hub that cannot be reached. */
export async function deadUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}
