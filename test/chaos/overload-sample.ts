// Samplers for the overload run, all from outside the daemon: its RSS from /proc (every 100 ms) and the per-actor
// mailbox depths from GET /metrics (every 500 ms), keeping the peaks.
import type { ProcessDaemon } from './lib/daemon-process.js';

export interface Samples {
  peakRssBytes: number;
  rssSamples: number;
  peakMailbox: Record<string, number>;
  scrapes: number;
  scrapeErrors: number;
}

/** `memvault_mailbox_depth{actor="x"} n` lines of a Prometheus text exposition. */
export function mailboxDepths(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^memvault_mailbox_depth\{[^}]*actor="([^"]+)"[^}]*\}\s+(\S+)$/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

/** Starts both samplers; `stop()` ends them and resolves with the peaks once the last scrape has answered. */
export function startSamplers(d: ProcessDaemon): { samples: Samples; stop: () => Promise<Samples> } {
  const s: Samples = { peakRssBytes: d.rssBytes(), rssSamples: 1, peakMailbox: {}, scrapes: 0, scrapeErrors: 0 };
  const rss = setInterval(() => {
    s.peakRssBytes = Math.max(s.peakRssBytes, d.rssBytes());
    s.rssSamples++;
  }, 100);
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  const scrape = async (): Promise<void> => {
    try {
      const r = await d.api<string>('GET', '/metrics', undefined, { timeoutMs: 10_000 });
      if (r.status !== 200 || typeof r.body !== 'string') throw new Error(`GET /metrics answered ${r.status}`);
      for (const [actor, n] of Object.entries(mailboxDepths(r.body))) s.peakMailbox[actor] = Math.max(s.peakMailbox[actor] ?? 0, n);
      s.scrapes++;
    } catch {
      s.scrapeErrors++;
    }
  };
  let scraping = false;
  // a slow scrape is not stacked on: a tick that finds one still running is skipped
  const metrics = setInterval(() => {
    if (stopped || scraping) return;
    scraping = true;
    inFlight = scrape().finally(() => (scraping = false));
  }, 500);
  return {
    samples: s,
    stop: async () => {
      stopped = true;
      clearInterval(rss);
      clearInterval(metrics);
      await inFlight;
      return s;
    },
  };
}

/** The p-th percentile (0–100) of `xs`, nearest rank; 0 for none. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
