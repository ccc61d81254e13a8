/**
 * `serve` over a long run: a packed install's `crawlkit serve` on a SQLite store, driven with the real SDK
 * (`@mendable/firecrawl-js`) for `--minutes` (scrapes, batches, crawls, cancels, webhooks to a receiver, searches,
 * maps, a schedule every minute), sampling the server's RSS, heap, event-loop delay, open file descriptors and the
 * store's file sizes. Prints one JSON line per sample and a table of the curves at the end.
 *
 *   node bench/lib/serve-soak.ts --install /tmp/soak/install --minutes 20 [--out samples.jsonl]
 *
 * `--install` is a folder where the packed tarballs were installed with npm (as `pnpm test:packed` does).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import Firecrawl from '@mendable/firecrawl-js';

import { startFixtureServer } from '../../fixtures/server.ts';
import { generatedSiteRoutes } from './generated-site.ts';

const { values } = parseArgs({
  options: {
    install: { type: 'string' },
    minutes: { type: 'string', default: '20' },
    out: { type: 'string' },
    sample: { type: 'string', default: '30' },
  },
});
if (!values.install) throw new Error('--install <folder of the packed install> is required');
const durationMs = Number(values.minutes) * 60_000;
const sampleMs = Number(values.sample) * 1000;
const work = mkdtempSync(join(tmpdir(), 'ck-soak-'));
const storeDir = join(work, 'store');
const probeFile = join(work, 'probe.jsonl');

// In the server process: heap, event-loop delay and live handles, every second, to a file this script reads.
const preload = join(work, 'probe.mjs');
writeFileSync(
  preload,
  `import { monitorEventLoopDelay } from 'node:perf_hooks';
import { appendFileSync } from 'node:fs';
const h = monitorEventLoopDelay({ resolution: 10 }); h.enable();
setInterval(() => {
  const m = process.memoryUsage();
  appendFileSync(${JSON.stringify(probeFile)}, JSON.stringify({ t: Date.now(), rss: m.rss, heapUsed: m.heapUsed,
    heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers,
    eldP50: h.percentile(50) / 1e6, eldP99: h.percentile(99) / 1e6, eldMax: h.max / 1e6,
    resources: process.getActiveResourcesInfo().length }) + '\\n');
  h.reset();
}, ${sampleMs}).unref();
`,
);

// A page whose text changes every minute: each schedule firing sees a change.
let changing = 0;
setInterval(() => changing++, 60_000).unref();
const site = await startFixtureServer({
  routes: {
    ...generatedSiteRoutes({ pages: 400, linksPerPage: 6 }),
    '/changing.html': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body><main><h1>Changing</h1><p>Version ${changing} of this page.</p></main></body></html>`);
    },
  },
});

const webhooks = { received: 0, types: new Map<string, number>() };
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    webhooks.received++;
    try {
      const type = (JSON.parse(body) as { type?: string }).type ?? '?';
      webhooks.types.set(type, (webhooks.types.get(type) ?? 0) + 1);
    } catch {
      webhooks.types.set('unparsable', (webhooks.types.get('unparsable') ?? 0) + 1);
    }
    res.end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const bin = join(values.install, 'node_modules/crawlkit/dist/cli.js');
const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--engine', 'http'], {
  cwd: work,
  env: {
    ...process.env,
    CRAWLKIT_STORE: storeDir,
    CRAWLKIT_WEBHOOK_SECRET: 'soak-secret',
    NODE_OPTIONS: `--import ${preload}`,
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stderr = '';
child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-20_000)));
const apiUrl = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
  });
  child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
});
const pid = child.pid!;
const fc = new Firecrawl({ apiUrl, apiKey: 'fc-local' });

const counts = new Map<string, { ok: number; failed: number }>();
const failures = new Map<string, string>();
/** Milliseconds of each operation since the last sample. */
const recent = new Map<string, number[]>();
async function op(name: string, work: () => Promise<unknown>): Promise<void> {
  const c = counts.get(name) ?? { ok: 0, failed: 0 };
  counts.set(name, c);
  const t0 = performance.now();
  try {
    await work();
    c.ok++;
    const list = recent.get(name) ?? [];
    list.push(performance.now() - t0);
    recent.set(name, list);
  } catch (error) {
    c.failed++;
    failures.set(name, String((error as Error).message ?? error).slice(0, 300));
  }
}

function fdCount(): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}
function storeBytes(): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const name of readdirSync(storeDir)) sizes[name] = statSync(join(storeDir, name)).size;
  return sizes;
}

const started = Date.now();
const samples: Record<string, unknown>[] = [];
let lastProbe = '';
function sample(): void {
  const lines = existsSync(probeFile) ? readFileSync(probeFile, 'utf8').trim().split('\n') : [];
  const probeLine = lines.at(-1) ?? '';
  const probe = probeLine && probeLine !== lastProbe ? (JSON.parse(probeLine) as Record<string, number>) : {};
  lastProbe = probeLine;
  const row = {
    min: Number(((Date.now() - started) / 60_000).toFixed(1)),
    fds: fdCount(),
    ...probe,
    store: storeBytes(),
    webhooks: webhooks.received,
    ms: Object.fromEntries([...recent].map(([k, v]) => [k, Math.round(v.reduce((a, b) => a + b, 0) / v.length)])),
  };
  recent.clear();
  samples.push(row);
  const line = JSON.stringify(row);
  console.log(line);
  if (values.out) appendFileSync(values.out, line + '\n');
}

const page = (n: number) => `${site.url}/p/${n}`;
let n = 0;
const rand = (max: number) => Math.floor(Math.random() * max);

// The schedule: a scrape target that changes every minute and a small crawl, each run's changes to the receiver.
await op('schedule', async () => {
  const response = await fetch(`${apiUrl}/v2/schedule`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer fc-local' },
    body: JSON.stringify({
      every: '1m',
      targets: [
        { type: 'scrape', url: `${site.url}/changing.html` },
        { type: 'crawl', url: `${site.url}/`, limit: 15, scrapeOptions: { maxAge: 0 } },
      ],
      webhook: { url: hook, events: ['new', 'changed', 'removed'] },
    }),
  });
  if (!response.ok) throw new Error(`schedule ${response.status}: ${await response.text()}`);
});

const sampler = setInterval(sample, sampleMs);
sample();
while (Date.now() - started < durationMs) {
  n++;
  await Promise.all([
    op('scrape', () => fc.scrape(page(rand(400)), { formats: ['markdown', 'links'], maxAge: 0 })),
    op('scrape-cached', () => fc.scrape(page(rand(20)), { formats: ['markdown'] })),
    op('map', () => fc.map(`${site.url}/`, { limit: 50 })),
    op('search', () => fc.search('river mountain', { limit: 5 })),
  ]);
  if (n % 2 === 0) {
    await op('batch', () =>
      fc.batchScrape(
        Array.from({ length: 8 }, () => page(rand(400))),
        {
          options: { formats: ['markdown'], maxAge: 0 },
          webhook: { url: hook, events: ['completed', 'page'] },
          pollInterval: 1,
        } as never,
      ),
    );
  }
  if (n % 3 === 0) {
    await op('crawl', () =>
      fc.crawl(`${site.url}/`, {
        limit: 12,
        scrapeOptions: { maxAge: 0 },
        webhook: { url: hook, events: ['completed', 'page', 'started'] },
        pollInterval: 1,
      } as never),
    );
  }
  if (n % 4 === 0) {
    await op('crawl-cancel', async () => {
      const job = await fc.startCrawl(`${site.url}/`, { limit: 200, scrapeOptions: { maxAge: 0 } });
      await new Promise((r) => setTimeout(r, 300));
      await fc.cancelCrawl(job.id);
      await fc.getCrawlStatus(job.id);
    });
  }
  if (n % 5 === 0) {
    await op('status-bad-id', async () => {
      await fc.getCrawlStatus('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    });
  }
}
clearInterval(sampler);
sample();
child.kill('SIGTERM');
const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
await site.close();
receiver.close();

console.log(`\nserve exited ${code}; ${n} rounds in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
console.log('operations:', JSON.stringify(Object.fromEntries(counts)));
for (const [name, message] of failures) console.log(`last failure of ${name}: ${message}`);
console.log('webhooks received:', webhooks.received, JSON.stringify(Object.fromEntries(webhooks.types)));
const pick = (i: number) => samples[Math.min(samples.length - 1, Math.max(0, i))]!;
const quarter = Math.floor(samples.length / 4);
const rows = [pick(1), pick(quarter), pick(2 * quarter), pick(3 * quarter), pick(samples.length - 1)];
const mb = (v: unknown) => (typeof v === 'number' ? (v / 1048576).toFixed(1) : '-');
console.log('min | rss MB | heapUsed MB | external MB | fds | resources | eld p99 ms | store files (KB) | mean ms');
for (const r of rows) {
  const store = Object.entries(r.store as Record<string, number>)
    .map(([k, v]) => `${k} ${(v / 1024).toFixed(0)}`)
    .join(', ');
  console.log(
    `${String(r.min)} | ${mb(r.rss)} | ${mb(r.heapUsed)} | ${mb(r.external)} | ${String(r.fds)} | ${typeof r.resources === 'number' ? r.resources : '-'} | ${typeof r.eldP99 === 'number' ? r.eldP99.toFixed(1) : '-'} | ${store} | ${JSON.stringify(r.ms)}`,
  );
}
if (code !== 0) console.log(stderr.slice(-3000));
