// Runs generated request probes (payloads, frontmatter, markdown): sends each, compares the answer with the
// outcome the generator expected, and checks that every write that must succeed landed inside the vault as sent.
import fc from 'fast-check';
import { reasonOf, record, show, triedKind, type Client, type Tally } from './hostile-client.js';
import { landedInside } from './hostile-paths.js';
import type { Probe } from './hostile-payloads.js';

export interface ProbeRunCtx {
  client: Client;
  vault: string;
  canary: string;
  tally: Tally;
}

async function runOne(ctx: ProbeRunCtx, p: Probe): Promise<void> {
  triedKind(ctx.tally, p.category, p.how);
  p.setup?.(ctx.vault);
  let r;
  try {
    r = await p.send(ctx.client);
  } catch (err) {
    // the connection was dropped rather than answered: the gateway failed to say why
    return record(ctx.tally, p.category, 'crashed', `${p.how} ${show(p.input)} (${p.via}) → connection error ${(err as Error).message}`);
  }
  const got = reasonOf(r, p.via);
  const input = `${p.how} ${show(p.input)} (${p.via})`;
  if (r.status === 500 || got === 'internal' || got === 'rpc -32603')
    return record(ctx.tally, p.category, 'crashed', `${input} → ${got}: ${r.text.slice(0, 200)}`);
  if (r.text.includes(ctx.canary)) return record(ctx.tally, p.category, 'escaped', `${input}: the answer holds canary text`);
  if (got !== p.want) return record(ctx.tally, p.category, 'wrongReason', `${input} → ${got} (${r.status}), expected ${p.want}`);
  if (got === 'ok' && p.lands) {
    const wrong = landedInside(ctx.vault, p.lands.rel.normalize('NFC'), p.lands.content);
    if (wrong !== null) return record(ctx.tally, p.category, 'wrongReason', `${input}: ${wrong}`);
  }
  record(ctx.tally, p.category, 'ok');
}

/** Sends `count` probes drawn from `arb` with `seed`, `concurrency` at a time. */
export async function runProbes(
  ctx: ProbeRunCtx,
  arb: fc.Arbitrary<Probe>,
  count: number,
  seed: number,
  concurrency: number,
): Promise<void> {
  const probes = fc.sample(arb, { seed, numRuns: count });
  let i = 0;
  const worker = async () => {
    while (i < probes.length) await runOne(ctx, probes[i++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
