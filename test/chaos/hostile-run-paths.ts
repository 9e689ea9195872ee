// Runs category 1 (paths): each generated path goes to one operation, over HTTP JSON, MCP or the mutation path;
// a legal name runs the whole write → read → move → delete chain and must land inside the vault at its NFC path.
import fc from 'fast-check';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathKind, reasonOf, record, show, triedKind, type Client, type RawResponse, type Tally } from './hostile-client.js';
import { expectedReason, landedInside, pathCases, type PathCase, type PathOp } from './hostile-paths.js';
import { PLANTED } from './hostile-sandbox.js';

export interface PathRunCtx {
  client: Client;
  vault: string;
  canary: string;
  tally: Tally;
  /** A fresh number for unique names. */
  next(): number;
}

const CAT = 'paths';

function unique(p: string, n: number): string {
  return p.replace(/(\.md)$/i, ` u${n}$1`);
}

/** Classifies one answer against the expectation and records it. */
function judge(ctx: PathRunCtx, got: string, want: string, input: string, extra: string | null = null): void {
  const { tally } = ctx;
  if (got === 'internal' || got === 'http 500') return record(tally, CAT, 'crashed', `${input} → ${got}`);
  if (extra !== null) return record(tally, CAT, 'escaped', `${input}: ${extra}`);
  if (got === want) return record(tally, CAT, 'ok');
  // a refusal meant to keep the path out of the vault that came back as success is an escape, not a wrong reason
  const escaped = got === 'ok' && want === 'path_escape';
  record(tally, CAT, escaped ? 'escaped' : 'wrongReason', `${input} → ${got}, expected ${want}`);
}

function leaks(ctx: PathRunCtx, r: RawResponse): string | null {
  return r.text.includes(ctx.canary) ? 'the answer holds canary text from outside the vault' : null;
}

async function gatewayCall(
  ctx: PathRunCtx,
  via: 'http' | 'mcp',
  tool: string,
  args: Record<string, unknown>,
): Promise<{ got: string; r: RawResponse }> {
  const r = via === 'http' ? await ctx.client.tool(tool, args) : await ctx.client.mcp(tool, args);
  return { got: reasonOf(r, via), r };
}

async function probeOne(ctx: PathRunCtx, c: PathCase, op: PathOp, via: 'http' | 'mcp'): Promise<void> {
  triedKind(ctx.tally, CAT, pathKind(c.how, op, false));
  const input = `${op} ${show(c.path)} (${c.how}, ${op === 'write' || op === 'read' ? via : 'mutation path'})`;
  const gateway = op === 'write' || op === 'read';
  const want = expectedReason(c, op, gateway);
  if (op === 'write' || op === 'read') {
    const args = op === 'write' ? { path: c.path, content: `# Probe\n\nhostile path probe ${ctx.next()}\n` } : { path: c.path };
    const { got, r } = await gatewayCall(ctx, via, `vault_${op}`, args);
    return judge(ctx, got, want, input, leaks(ctx, r));
  }
  const fresh = `Inbox/hostile target ${ctx.next()}.md`;
  const mop =
    op === 'delete'
      ? { op: 'delete' as const, path: c.path }
      : op === 'move_from'
        ? { op: 'move' as const, from: c.path, to: fresh }
        : { op: 'move' as const, from: PLANTED.seed, to: c.path };
  const res = await ctx.client.mutate(mop);
  let extra: string | null = null;
  if (res.ok && op === 'move_to') extra = `the seed note was moved to ${show(res.paths[1])}`;
  if (op === 'move_from' && existsSync(path.join(ctx.vault, fresh))) extra = `${show(fresh)} was created from ${show(c.path)}`;
  if (!existsSync(path.join(ctx.vault, PLANTED.seed))) extra = 'the seed note is gone';
  judge(ctx, res.ok ? 'ok' : res.reason, want, input, extra);
}

/** write → read → move → delete of a legal name: four inputs, each must succeed and stay inside the vault. */
async function legalChain(ctx: PathRunCtx, c: PathCase, via: 'http' | 'mcp'): Promise<void> {
  triedKind(ctx.tally, CAT, pathKind(c.how, 'write', true));
  const n = ctx.next();
  const p = unique(c.path, n);
  const rel = p.normalize('NFC');
  const content = `# Legal ${n}\n\nA note with an unusual but legal name.\n`;
  const w = await gatewayCall(ctx, via, 'vault_write', { path: p, content });
  const body = via === 'http' ? w.r.json : w.r.json?.result?.structuredContent;
  const landed = w.got === 'ok' ? landedInside(ctx.vault, rel, content) : null;
  const wrongPath = w.got === 'ok' && body?.path !== rel ? `answered path ${show(body?.path)}, expected ${show(rel)}` : null;
  judge(ctx, w.got, 'ok', `write ${show(p)} (legal, ${via})`, landed ?? wrongPath);
  if (w.got !== 'ok') return;
  const r = await gatewayCall(ctx, via, 'vault_read', { path: p });
  const readBody = via === 'http' ? r.r.json : r.r.json?.result?.structuredContent;
  judge(
    ctx,
    r.got,
    'ok',
    `read ${show(p)} (legal, ${via})`,
    leaks(ctx, r.r) ?? (r.got === 'ok' && readBody?.content !== content ? 'read back other content' : null),
  );
  const to = unique(`Inbox/moved ${c.path.split('/').pop()!}`, n);
  const m = await ctx.client.mutate({ op: 'move', from: p, to });
  judge(
    ctx,
    m.ok ? 'ok' : m.reason,
    'ok',
    `move ${show(p)} → ${show(to)}`,
    m.ok
      ? (landedInside(ctx.vault, to.normalize('NFC'), content) ??
          (existsSync(path.join(ctx.vault, rel)) ? 'the source is still there' : null))
      : null,
  );
  if (!m.ok) return;
  const d = await ctx.client.mutate({ op: 'delete', path: to });
  judge(
    ctx,
    d.ok ? 'ok' : d.reason,
    'ok',
    `delete ${show(to)}`,
    d.ok && existsSync(path.join(ctx.vault, to.normalize('NFC'))) ? 'the note is still there' : null,
  );
}

export const probe = fc.tuple(
  pathCases,
  fc.constantFrom<PathOp>('write', 'write', 'read', 'read', 'delete', 'move_from', 'move_to'),
  fc.constantFrom<'http' | 'mcp'>('http', 'http', 'http', 'mcp'),
);

/** Runs at least `count` path inputs generated from `seed`, `concurrency` at a time (the writer serialises anyway). */
export async function runPaths(ctx: PathRunCtx, count: number, seed: number): Promise<void> {
  const start = ctx.tally.byCategory[CAT] ?? 0;
  const cases = fc.sample(probe, { seed, numRuns: count });
  let i = 0;
  const worker = async () => {
    while ((ctx.tally.byCategory[CAT] ?? 0) - start < count && i < cases.length) {
      const [c, op, via] = cases[i++]!;
      if (c.cls === 'legal') await legalChain(ctx, c, via);
      else await probeOne(ctx, c, op, via);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}
