// The measurement that decides whether a streamed extraction is worth building (issue 37, the whole-page row): the
// body's read overlapped with the parse, against today's order (read the whole body, then decode and parse it).
//
// The 12 largest WCXB dev pages are served from a child process and read over HTTP with undici (as the HTTP engine
// does) on the main thread; each chunk is transferred to one worker thread as it arrives. `whole`: the worker keeps
// the chunks and decodes and parses the page at the end (in 64 KB slices, as the extractor writes it); `stream`:
// each chunk is decoded (a streaming `TextDecoder`) and parsed on arrival. The parse is htmlparser2's `Parser`, a
// stand-in for the extractor's (which takes the whole page as one string today). Both orders alternate page by page;
// the figure is the wall time from the request to the worker's end of the parse.
//
// Run: pnpm exec node bench/lib/stream-overlap.ts   (about 15 s; it uses no crawlkit build)
import { loadavg } from 'node:os';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';

import { Parser } from 'htmlparser2';
import { Agent } from 'undici';

import { startPageServerProcess } from './page-server-process.ts';
import { median } from './report.ts';
import { loadWcxbPages } from './wcxb.ts';

type Order = 'whole' | 'stream';
type Message = { kind: 'start'; order: Order } | { kind: 'chunk'; chunk: ArrayBuffer } | { kind: 'end' };

const SLICE = 64 * 1024;

function parseInWorker(): void {
  let order: Order = 'whole';
  let chunks: Uint8Array[] = [];
  let decoder = new TextDecoder();
  let events = 0;
  const handler = { onopentag: () => events++, ontext: () => events++ };
  let parser = new Parser(handler, { decodeEntities: true });
  parentPort!.on('message', (m: Message) => {
    if (m.kind === 'start') {
      order = m.order;
      chunks = [];
      decoder = new TextDecoder();
      parser = new Parser(handler, { decodeEntities: true });
    } else if (m.kind === 'chunk') {
      const bytes = new Uint8Array(m.chunk);
      if (order === 'stream') parser.write(decoder.decode(bytes, { stream: true }));
      else chunks.push(bytes);
    } else {
      if (order === 'whole') {
        const text = Buffer.concat(chunks).toString('utf8');
        for (let i = 0; i < text.length; i += SLICE) parser.write(text.slice(i, i + SLICE));
      } else parser.write(decoder.decode());
      parser.end();
      parentPort!.postMessage(events);
    }
  });
}

async function main(): Promise<void> {
  const datasets = process.env.WCXB_DIR ?? new URL('../../../shared/datasets/wcxb-dev', import.meta.url).pathname;
  const all = loadWcxbPages(datasets).sort((a, b) => a.html.length - b.html.length);
  const pages = all.slice(-12).reverse();
  all.length = 0;
  const server = await startPageServerProcess(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
  const worker = new Worker(new URL(import.meta.url));
  const agent = new Agent();
  const scrape = async (id: string, order: Order): Promise<number> => {
    const t0 = performance.now();
    const parsed = new Promise((resolve) => worker.once('message', resolve));
    worker.postMessage({ kind: 'start', order } satisfies Message);
    const response = await agent.request({ origin: server.url, path: `/${id}.html`, method: 'GET' });
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      const copy = new Uint8Array(chunk); // the socket's buffer is not ours to transfer
      worker.postMessage({ kind: 'chunk', chunk: copy.buffer } satisfies Message, [copy.buffer]);
    }
    worker.postMessage({ kind: 'end' } satisfies Message);
    await parsed;
    return performance.now() - t0;
  };
  try {
    for (const order of ['whole', 'stream'] as const) await scrape(pages[11]!.id, order);
    const rows: { whole: number; stream: number }[] = [];
    console.log(`load ${loadavg()[0]!.toFixed(1)}; wall ms from the request to the end of the parse, median of 6`);
    for (const page of pages) {
      const t: Record<Order, number[]> = { whole: [], stream: [] };
      for (let i = 0; i < 6; i++) {
        for (const order of i % 2 ? (['whole', 'stream'] as const) : (['stream', 'whole'] as const)) {
          t[order].push(await scrape(page.id, order));
        }
      }
      const row = { whole: median(t.whole), stream: median(t.stream) };
      rows.push(row);
      console.log(
        `${page.id}  ${(page.html.length / 1e6).toFixed(2)} MB  whole ${row.whole.toFixed(1)}  stream ${row.stream.toFixed(1)}`,
      );
    }
    const saved = median(rows.map((r) => r.whole - r.stream));
    console.log(
      `median of the pages: whole ${median(rows.map((r) => r.whole)).toFixed(1)}, stream ${median(rows.map((r) => r.stream)).toFixed(1)}; median saving a page ${saved.toFixed(1)} ms; load ${loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    await worker.terminate();
    await agent.close();
    await server.close();
  }
}

if (isMainThread) await main();
else parseInWorker();
