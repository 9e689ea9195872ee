// Reading another process's memory from /proc (RSS, peak, CPU, smaps by mapping) and per-thread heaps from /metrics.
import { readFileSync } from 'node:fs';

export interface ProcFigures {
  /** VmRSS, MB */
  rssMB: number;
  /** VmHWM: the peak RSS so far, MB */
  hwmMB: number;
  /** utime + stime of every thread so far */
  cpuSeconds: number;
}

const CLK_TCK = 100; // Linux's USER_HZ on every architecture Node runs on

export function readProc(pid: number): ProcFigures {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  // fields after the command name (which may hold spaces, inside parentheses): utime and stime are the 12th and 13th
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024, cpuSeconds: (Number(f[11]) + Number(f[12])) / CLK_TCK };
}

/** Which kind of memory a mapping is, for the breakdown. */
export function mappingKind(name: string): string {
  if (name === '') return 'anonymous (malloc arenas, V8 heaps, onnxruntime)';
  if (name === '[heap]') return '[heap] (main brk heap)';
  if (name.startsWith('[stack')) return '[stack]';
  if (/onnxruntime/.test(name)) return 'onnxruntime library';
  if (/\/node$|\/nodejs$/.test(name)) return 'node binary';
  if (/\.node$/.test(name)) return 'native addons (.node)';
  if (/\.so(\.|$)/.test(name)) return 'shared libraries';
  if (/\.sqlite(-shm|-wal)?$/.test(name)) return 'SQLite files (mmap / shm)';
  if (/\.onnx$/.test(name)) return 'model file';
  return 'other files';
}

/** RSS (MB) summed by `mappingKind`, from /proc/<pid>/smaps, largest first. */
export function smapsByMapping(pid: number): Record<string, number> {
  const out = new Map<string, number>();
  let kind = 'other files';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      kind = mappingKind(head[1]!.trim());
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out.set(kind, (out.get(kind) ?? 0) + Number(rss[1]) / 1024);
  }
  return Object.fromEntries([...out].sort((a, b) => b[1] - a[1]));
}

/** Each thread's V8 heap (used and total, MB) from Prometheus text: `nodejs_heap_size_{used,total}_bytes{thread=…}`. */
export function parseMetrics(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^nodejs_heap_size_(used|total)_bytes\{[^}]*thread="([^"]+)"[^}]*\} (\S+)$/gm)) {
    out[`${m[2]} ${m[1]}`] = Number(m[3]) / 2 ** 20;
  }
  return out;
}
