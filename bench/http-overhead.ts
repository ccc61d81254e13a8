/**
 * HTTP engine overhead: `pnpm --filter @crawlkit/fetcher build && pnpm exec node bench/http-overhead.ts`
 *
 * Measures `HttpEngine.fetch` (policy check, redirect handling, limits, decompression, charset sniffing and decoding)
 * against a plain `undici.request` + `body.text()` loop (same request headers, its own keep-alive Agent), and Node's
 * global `fetch` for context, all in the same run. The server runs in a worker thread serving fixed buffers, so
 * it adds the same cost to every client. Sequential requests give the per-request latency; 16 in flight the
 * throughput. Prints a table ('vs crawlkit' = req/s over `HttpEngine.fetch`'s on the same page) and writes
 * bench/results/http-overhead.json. `--quick`: a tenth of the requests.
 */
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';

import { DEFAULT_USER_AGENT, HttpEngine } from '@crawlkit/fetcher';
import { Agent, request } from 'undici';

import { finish, isQuick, withRatios, type Row } from './lib/report.ts';

const quick = isQuick();
const SEQUENTIAL = Number(process.env.BENCH_N ?? (quick ? 300 : 1500));
const CONCURRENT_TOTAL = Number(process.env.BENCH_C_N ?? (quick ? 600 : 3000));
const IN_FLIGHT = 16;

const server = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const pages = Object.fromEntries(Object.entries(workerData).map(([k, v]) => [k, Buffer.from(v)]));
const srv = createServer((req, res) => {
  const gz = req.url.endsWith('-gz');
  const body = pages[req.url.slice(1)];
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, ...(gz ? { 'content-encoding': 'gzip' } : {}) });
  res.end(body);
});
srv.keepAliveTimeout = 60000;
srv.listen(0, '127.0.0.1', () => parentPort.postMessage(srv.address().port));
`;

const paragraph =
  '<p>Some realistic paragraph text about crawling, scraping and extracting main content from web pages.</p>\n';
const page = (bytes: number) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body>${paragraph.repeat(Math.ceil(bytes / paragraph.length))}</body></html>`;
const small = page(2_000);
const large = page(100_000);
const pages = { small, large, 'large-gz': gzipSync(large) };

const worker = new Worker(server, { eval: true, workerData: pages });
const port = await new Promise<number>((resolve) => worker.once('message', resolve));
const base = `http://127.0.0.1:${port}`;

type Client = (url: string) => Promise<number>;
const agent = new Agent();
const engine = new HttpEngine({ limits: { lowSpeedBytesPerSec: 0 } });
const engineDefault = new HttpEngine();
// The baseline sends the engine's default request headers, so both put the same bytes on the wire.
const headers = {
  'user-agent': DEFAULT_USER_AGENT,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'en-US,en;q=0.9',
  'accept-encoding': 'gzip, deflate, br, zstd',
};
const clients: Record<string, Client> = {
  'undici.request': async (url) => {
    const res = await request(url, { dispatcher: agent, headers });
    return (await res.body.text()).length;
  },
  'HttpEngine.fetch': async (url) => (await engine.fetch({ url })).text!.length,
  'HttpEngine.fetch (defaults)': async (url) => (await engineDefault.fetch({ url })).text!.length,
  'global fetch': async (url) => (await (await fetch(url)).text()).length,
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const ROUNDS = 3;

async function sequential(client: Client, url: string, samples: number[]): Promise<void> {
  for (let i = 0; i < (quick ? 20 : 100); i++) await client(url);
  for (let i = 0; i < SEQUENTIAL / ROUNDS; i++) {
    const start = performance.now();
    await client(url);
    samples.push(performance.now() - start);
  }
}

async function concurrent(client: Client, url: string): Promise<number> {
  let next = 0;
  const total = CONCURRENT_TOTAL / ROUNDS;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < total) await client(url);
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

// Clients take turns round by round, so that a burst of load from elsewhere on the machine hits all of them alike.
const rows: Row[] = [];
const RPS = `req/s @${IN_FLIGHT} (best round)`;
for (const [name, path] of [
  ['2 KB page', 'small'],
  ['100 KB page', 'large'],
  ['100 KB page, gzip', 'large-gz'],
] as const) {
  // undici.request does not decompress: it has no gzip row.
  const names = Object.keys(clients).filter((c) => !(c === 'undici.request' && path === 'large-gz'));
  const samples = new Map(names.map((c) => [c, [] as number[]]));
  const rps = new Map(names.map((c) => [c, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const client of names) {
      await sequential(clients[client]!, `${base}/${path}`, samples.get(client)!);
      rps.get(client)!.push(await concurrent(clients[client]!, `${base}/${path}`));
    }
  }
  const group: Row[] = [];
  for (const client of names) {
    const sorted = samples.get(client)!.sort((a, b) => a - b);
    group.push({
      page: name,
      client,
      'median µs': Math.round(percentile(sorted, 0.5) * 1000),
      'p95 µs': Math.round(percentile(sorted, 0.95) * 1000),
      [RPS]: Math.round(Math.max(...rps.get(client)!)),
    });
  }
  rows.push(...withRatios(group, RPS, 'HttpEngine.fetch', 'client'));
}
await Promise.all([engine.close(), engineDefault.close(), agent.close()]);
await worker.terminate();
finish({
  name: 'http-overhead',
  title: `HTTP engine overhead: HttpEngine.fetch beside undici.request and fetch (${SEQUENTIAL} sequential, ${CONCURRENT_TOTAL} at ${IN_FLIGHT} in flight)`,
  quick,
  rows,
  goals: [],
  data: { sequential: SEQUENTIAL, concurrentTotal: CONCURRENT_TOTAL, inFlight: IN_FLIGHT, rounds: ROUNDS },
});
