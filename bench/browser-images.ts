/**
 * Images in the browser engine, A/B: `pnpm build && CK_BENCH_BASE=<other build's crawlkit dist/index.js>
 * node bench/browser-images.ts [--rounds N] [--wcxb N]`.
 *
 * Each build, in alternating child processes: (a) a browser-engine crawl of a generated photo blog (30 pages, 20
 * images each, every image answered after a CDN-like 40 ms): wall time, image requests the site saw, peak PSS of
 * the process and its Chromium; (b) `N` WCXB dev pages (every 25th: 60) on a local server scraped by the same
 * engine (`engine: 'browser'`), markdown, links and images, whose outputs the parent compares page by page. Prints
 * one table and the pages whose output differs. The baseline is the build whose browser loads images (before).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { deflateSync } from 'node:zlib';

import type * as Crawlkits from 'crawlkit';

import { alternate, median, numberOption } from './lib/ab-builds.ts';
import { listenOnLoopback } from '../fixtures/loopback-listen.ts';
import { startPageServer } from './lib/page-server.ts';
import { pss } from './lib/process-memory.ts';
import { loadWcxbPages } from './lib/wcxb.ts';

const PAGES = 30;
const IMAGES = 20;
const DELAY_MS = 40;
const ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

interface Sample {
  seconds: number;
  pages: number;
  imageRequests: number;
  peakMB: number;
  wcxb: Record<string, string>;
}

/** A 320×240 grey PNG (about 1 KB compressed: its bytes are not what is measured, the round trips are). */
function png(): Buffer {
  const crc = (buf: Buffer) => {
    let c = ~0;
    for (const byte of buf) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const [w, h] = [320, 240];
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const raw = Buffer.alloc((w + 1) * h, 0x80);
  for (let y = 0; y < h; y++) raw[y * (w + 1)] = 0;
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function blogPage(i: number): string {
  const photos = Array.from(
    { length: IMAGES },
    (_, k) =>
      `<figure><img src="/img/${i}-${k}.png" alt="Photo ${k} of day ${i}"><figcaption>Day ${i}, photo ${k}: ` +
      `the light over the harbour.</figcaption></figure>`,
  ).join('');
  const nav = Array.from({ length: PAGES }, (_, j) => `<a href="/day/${j}">Day ${j}</a>`).join(' ');
  return `<!doctype html><html><head><title>Day ${i}</title></head><body><nav>${nav}</nav><main><h1>Day ${i}</h1>
<p>Notes of the walk on day ${i}, with the photographs taken along the way.</p>${photos}</main></body></html>`;
}

/** Peak PSS of this process and every process under it (Chromium), sampled every 100 ms. */
function treeMemory(): { stop: () => number } {
  const children = (root: number) => {
    const parents = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // ended meanwhile
      }
    }
    const tree = new Set([root]);
    for (let grew = true; grew;) {
      grew = false;
      for (const [pid, parent] of parents) if (tree.has(parent) && !tree.has(pid)) grew = Boolean(tree.add(pid));
    }
    return [...tree];
  };
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(
      peak,
      children(process.pid).reduce((sum, pid) => sum + pss(pid), 0),
    );
  }, 100);
  return { stop: () => (clearInterval(timer), Math.round(peak / 2 ** 20)) };
}

async function child(entry: string, wcxbCount: number): Promise<Sample> {
  const { Crawlkit } = (await import(entry)) as typeof Crawlkits;
  const image = png();
  let imageRequests = 0;
  const site = await listenOnLoopback(
    createServer((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/img/')) {
        imageRequests++;
        setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(image), DELAY_MS);
        return;
      }
      const day = /^\/day\/(\d+)$/.exec(url)?.[1] ?? (url === '/' ? '0' : undefined);
      if (day === undefined || Number(day) >= PAGES) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(blogPage(Number(day)));
    }),
  );
  const ck = new Crawlkit({ store: 'memory', engine: 'browser', browser: { args: ARGS }, timeoutMs: 30_000 });
  const memory = treeMemory();
  const started = performance.now();
  const response = await ck.crawl({ url: `${site.url}/`, limit: PAGES, scrapeOptions: { formats: ['markdown'] } });
  if (!response.success) throw new Error(response.error);
  let pages = 0;
  for await (const _doc of ck.watch(response.id)) pages++;
  const seconds = (performance.now() - started) / 1000;
  const peakMB = memory.stop();
  await site.close();

  const wcxb: Record<string, string> = {};
  const every = Math.max(1, Math.floor(1497 / wcxbCount));
  const pages60 = loadWcxbPages(process.env['WCXB_DIR'] ?? '../shared/datasets/wcxb-dev', { every }).slice(
    0,
    wcxbCount,
  );
  const server = await startPageServer(new Map(pages60.map((p) => [`/${p.id}.html`, p.html])));
  for (const page of pages60) {
    const result = await ck.scrape({
      url: `${server.url}/${page.id}.html`,
      formats: ['markdown', 'links', 'images'],
      maxAge: 0,
    });
    // A digest and the sizes: the child's one stdout line stays small.
    const { markdown = '', links = [], images = [] } = result.success ? result.data : {};
    // Each child serves on its own port: the origin is taken out before the builds' outputs are compared.
    const same = (text: string) => text.replaceAll(server.url, 'ORIGIN');
    wcxb[page.id] = result.success
      ? `${createHash('sha1')
          .update(same(JSON.stringify([markdown, links, images])))
          .digest('hex')
          .slice(0, 12)} ` + `markdown ${markdown.length} chars, ${links.length} links, ${images.length} images`
      : `error ${result.code}`;
  }
  await server.close();
  await ck.close();
  return { seconds, pages, imageRequests, peakMB, wcxb };
}

if (process.argv[2]?.endsWith('.js')) {
  const sample = await child(process.argv[2], Number(process.argv[3]));
  process.stdout.write(`${JSON.stringify(sample)}\n`, () => process.exit(0));
}

const rounds = numberOption('--rounds', 3);
const wcxbCount = numberOption('--wcxb', 60);
const samples = await alternate<Sample>(new URL(import.meta.url).pathname, rounds, [String(wcxbCount)]);
console.log('build       | crawl s (median) | pages | image requests | peak PSS MB (median)');
for (const [name, runs] of samples) {
  console.log(
    `${name.padEnd(11)} | ${median(runs.map((r) => r.seconds))
      .toFixed(1)
      .padStart(16)} | ${runs[0]!.pages} | ` +
      `${runs.map((r) => r.imageRequests).join('/')} | ${median(runs.map((r) => r.peakMB))} ` +
      `(all: ${runs.map((r) => `${r.seconds.toFixed(1)} s ${r.peakMB} MB`).join(', ')})`,
  );
}
const [before, after] = [...samples.values()].map((runs) => runs[0]!.wcxb);
if (before && after) {
  const differing = Object.keys(after).filter((id) => before[id] !== after[id]);
  const failed = Object.values(after).filter((out) => out.startsWith('error ')).length;
  console.log(`WCXB: ${failed} pages failed in this build`);
  console.log(`WCXB: ${differing.length} of ${Object.keys(after).length} pages differ: ${differing.join(' ')}`);
  const unstable = Object.keys(after).filter((id) =>
    [...samples.values()].some((r) => r.some((s) => s.wcxb[id] !== r[0]!.wcxb[id])),
  );
  console.log(`WCXB: ${unstable.length} pages differ between rounds of one build: ${unstable.join(' ')}`);
  for (const id of differing.slice(0, 8))
    console.log(`--- ${id}\nBEFORE ${before[id]!.slice(0, 600)}\nAFTER  ${after[id]!.slice(0, 600)}`);
}
