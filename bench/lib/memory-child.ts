// Child process of bench/memory.ts: one run at crawlkit's defaults (on-disk store, page cache, worker pool, HTTP
// engine), its memory broken down (memory-breakdown.ts) at every tenth of the pages and after the engine closes.
//
//   node bench/lib/memory-child.ts <crawlkit entry> batch <pages> <base URL> <ids,...>   a batchScrape() of the pages
//   node bench/lib/memory-child.ts <crawlkit entry> crawl <pages> <site URL>             a crawl() with that limit
//   node bench/lib/memory-child.ts <crawlkit entry> serve                       `serve`'s app, driven by the parent
// The last stdout line is the run's JSON (`serve`: a sample answers each `sample` message over IPC). CK_BENCH_OPTIONS
// (JSON) adds engine options.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type * as ServerModule from '@crawlkit/server';
import type * as CrawlkitModule from 'crawlkit';

import { memoryBreakdown, type MemorySample } from './memory-breakdown.ts';

export interface MemoryRun {
  mode: string;
  pages: number;
  failed: number;
  seconds: number;
  /** Samples at every tenth of the pages; the last one after `close()`. */
  samples: (MemorySample & { pages: number })[];
}

const [entry, mode, count, base, ids] = process.argv.slice(2) as [string, string, string, string, string];
const storeDir = mkdtempSync(join(tmpdir(), 'ck-bench-memory-'));
const probe = memoryBreakdown(storeDir);
const { Crawlkit } = (await import(pathToFileURL(entry).href)) as typeof CrawlkitModule;
// CK_BENCH_OPTIONS: more engine options as JSON (bench/memory.ts's small-container setting).
const more = JSON.parse(process.env['CK_BENCH_OPTIONS'] || '{}') as Record<string, unknown>;
const ck = new Crawlkit({ storeDir, engine: 'http', ...more });

if (mode === 'serve') {
  // The app of `crawlkit serve`, from the same build as the engine.
  const serverEntry = join(dirname(entry), '../../server/dist/index.js');
  const { startServer } = (await import(pathToFileURL(serverEntry).href)) as typeof ServerModule;
  const server = await startServer({ crawlkit: ck, port: 0, host: '127.0.0.1' });
  process.on('message', (m: { sample?: number; exit?: boolean }) => {
    void (async () => {
      if (m.exit) {
        await server.close();
        await ck.close();
        const sample = await probe.sample();
        rmSync(storeDir, { recursive: true, force: true });
        process.send!({ sample: { pages: -1, ...sample } }, () => process.exit(0));
        return;
      }
      process.send!({ sample: { pages: m.sample ?? 0, ...(await probe.sample()) } });
    })();
  });
  process.send!({ url: server.url });
} else {
  const total = Number(count);
  const samples: MemoryRun['samples'] = [];
  const marks = Array.from({ length: 10 }, (_, i) => Math.ceil(((i + 1) * total) / 10));
  let done = 0;
  let failed = 0;
  let sampling = Promise.resolve();
  let next = 0;
  const mark = () => {
    if (next < marks.length && done >= marks[next]!) {
      next++;
      const at = done;
      sampling = sampling.then(async () => {
        samples.push({ pages: at, ...(await probe.sample()) });
      });
    }
  };
  ck.on('page', () => (done++, mark()));
  ck.on('error', () => (done++, failed++, mark()));
  const t0 = performance.now();
  let id: string;
  if (mode === 'batch') {
    const paths = ids.split(',');
    // Every page once, then again under a new query (the page cache misses), until `total`.
    const urls = Array.from(
      { length: total },
      (_, i) =>
        `${base}/${paths[i % paths.length]}.html${i < paths.length ? '' : `?r=${Math.floor(i / paths.length)}`}`,
    );
    const started = await ck.batchScrape({ urls });
    if (!started.success) throw new Error(started.error);
    id = started.id;
  } else {
    const started = await ck.crawl({ url: base, limit: total });
    if (!started.success) throw new Error(started.error);
    id = started.id;
  }
  await new Promise<void>((resolve) => ck.on('job:completed', (e) => e.id === id && resolve()));
  const seconds = (performance.now() - t0) / 1000;
  await sampling;
  await ck.close();
  samples.push({ pages: -1, ...(await probe.sample()) });
  rmSync(storeDir, { recursive: true, force: true });
  const run: MemoryRun = { mode, pages: done, failed, seconds, samples };
  process.stdout.write(`${JSON.stringify(run)}\n`);
}
