// Where a process's resident memory is, read from inside it (bench/memory.ts): V8's heaps (this thread's and every
// worker thread's, through `worker.getHeapStatistics()`), the buffers outside them, and /proc/self/smaps split by
// kind of mapping: files (the node binary, shared libraries, the store's files), glibc's malloc arenas (the brk heap
// and the 64 MiB-aligned heaps of the other threads' arenas) and the other anonymous mappings (V8's pages, large
// mallocs, thread stacks).
//
//   const probe = memoryBreakdown();   // subscribes to new worker threads: make it before the engine starts
//   const sample = await probe.sample();
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import type { Worker } from 'node:worker_threads';

/** MiB, one decimal. */
export const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

export interface MemorySample {
  /** /proc/self/status, MiB. */
  rss: number;
  rssAnon: number;
  rssFile: number;
  rssShmem: number;
  peakRss: number;
  threads: number;
  /** This thread's V8 heap: physical pages, used after the last collection (not forced), and V8's own mallocs. */
  mainHeap: number;
  mainHeapUsed: number;
  mainMalloced: number;
  /** `process.memoryUsage()`: external memory V8 knows of (`external`), of which `ArrayBuffer`s. */
  external: number;
  arrayBuffers: number;
  /** The worker threads' V8 heaps (physical), summed, and each. */
  workersHeap: number;
  workerHeaps: number[];
  /** The worker threads' heap in use (after their last collection, not forced), summed. */
  workersHeapUsed: number;
  workersMalloced: number;
  workersExternal: number;
  /** smaps: Rss by kind of mapping, MiB. */
  maps: Record<MappingKind, number>;
  /** How many glibc arenas (brk heap + 64 MiB heaps of other arenas) smaps shows. */
  arenas: number;
}

export type MappingKind = 'binary' | 'libraries' | 'store files' | 'other files' | 'brk heap' | 'arena heaps' | 'anon';

/** A glibc arena's heap (not the main one) is an mmap of HEAP_MAX_SIZE (64 MiB on 64-bit), aligned to its size. */
const ARENA_HEAP = 64 * 2 ** 20;

/** Rss of each mapping of /proc/self/smaps by kind. `storeDir`: the store's files are named apart. */
export function smapsBreakdown(storeDir = '\0'): { maps: Record<MappingKind, number>; arenas: number } {
  const maps: Record<MappingKind, number> = {
    binary: 0,
    libraries: 0,
    'store files': 0,
    'other files': 0,
    'brk heap': 0,
    'arena heaps': 0,
    anon: 0,
  };
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return { maps, arenas: 0 };
  }
  const exe = process.execPath;
  let arenas = 0;
  let kind: MappingKind = 'anon';
  // An rw mapping at a 64 MiB boundary followed by its reserved (---p) tail up to the next boundary: an arena heap.
  let pending: { start: bigint; end: bigint; rss: number } | undefined;
  const settle = () => {
    if (!pending) return;
    maps.anon += pending.rss;
    pending = undefined;
  };
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const start = BigInt(`0x${head[1]}`);
      const end = BigInt(`0x${head[2]}`);
      const perms = head[3]!;
      const path = head[4]!.trim();
      if (pending && perms === '---p' && !path && start === pending.end && end % BigInt(ARENA_HEAP) === 0n) {
        maps['arena heaps'] += pending.rss;
        arenas++;
        pending = undefined;
        kind = 'arena heaps';
        continue;
      }
      settle();
      if (path === '[heap]') {
        kind = 'brk heap';
        arenas++;
      } else if (path === exe) kind = 'binary';
      else if (path.startsWith(storeDir)) kind = 'store files';
      else if (/\.so(\.|$)/.test(path)) kind = 'libraries';
      else if (path.startsWith('/')) kind = 'other files';
      else if (!path && perms.startsWith('rw') && start % BigInt(ARENA_HEAP) === 0n) {
        pending = { start, end, rss: 0 };
        kind = 'anon';
      } else kind = 'anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    const bytes = Number(rss[1]) * 1024;
    if (pending) pending.rss += bytes;
    else maps[kind] += bytes;
  }
  settle();
  for (const key of Object.keys(maps) as MappingKind[]) maps[key] = mib(maps[key]);
  return { maps, arenas };
}

function status(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const m of readFileSync('/proc/self/status', 'utf8').matchAll(/^(\w+):\s+(\d+)( kB)?$/gm)) {
      out[m[1]!] = m[3] ? Number(m[2]) * 1024 : Number(m[2]);
    }
  } catch {
    // no /proc
  }
  return out;
}

/** Makes the probe; from then on every worker thread of the process is watched (until it exits). */
export function memoryBreakdown(storeDir?: string) {
  const workers = new Set<Worker>();
  subscribe('worker_threads', (message) => {
    const { worker } = message as { worker: Worker };
    // A thread is asked only once it runs: the statistics of one still starting, or stopped, never come.
    worker.once('online', () => workers.add(worker));
    worker.once('exit', () => workers.delete(worker));
  });
  return {
    async sample(): Promise<MemorySample> {
      const heaps = await Promise.all(
        [...workers].map((w) =>
          Promise.race([
            w.getHeapStatistics().catch(() => undefined),
            new Promise<undefined>((resolve) => setTimeout(resolve, 2000)),
          ]),
        ),
      );
      const live = heaps.filter((h) => h !== undefined);
      const main = getHeapStatistics();
      const usage = process.memoryUsage();
      const s = status();
      const { maps, arenas } = smapsBreakdown(storeDir);
      const sum = (f: (h: (typeof live)[number]) => number) => mib(live.reduce((a, h) => a + f(h), 0));
      return {
        rss: mib(s['VmRSS'] ?? usage.rss),
        rssAnon: mib(s['RssAnon'] ?? 0),
        rssFile: mib(s['RssFile'] ?? 0),
        rssShmem: mib(s['RssShmem'] ?? 0),
        peakRss: mib(s['VmHWM'] ?? 0),
        threads: s['Threads'] ?? 0,
        mainHeap: mib(main.total_physical_size),
        mainHeapUsed: mib(main.used_heap_size),
        mainMalloced: mib(main.malloced_memory),
        external: mib(usage.external),
        arrayBuffers: mib(usage.arrayBuffers),
        workersHeap: sum((h) => h.total_physical_size),
        workerHeaps: live.map((h) => mib(h.total_physical_size)),
        workersHeapUsed: sum((h) => h.used_heap_size),
        workersMalloced: sum((h) => h.malloced_memory),
        workersExternal: sum((h) => h.external_memory),
        maps,
        arenas,
      };
    },
  };
}
