// What an extraction worker keeps live between whole-page scrapes (issue 37, gc37): heap snapshots of the pool's
// worker (each snapshot runs a full collection first) after a loop of whole-page markdown scrapes of the 12 largest
// dev pages, summed by kind of object, beside one taken right after the worker's first page.
//
//   node bench/lib/worker-heap.ts [rounds] [top] [--save DIR]      default 2 rounds, top 25
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { getHeapSnapshot } from 'node:v8';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';

import { startPageServerProcess } from './page-server-process.ts';
import { loadWcxbPages } from './wcxb.ts';
import { wholePageScraper } from './whole-page-scrape.ts';
import { loadCrawlkit } from './crawlkit-build.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
const args = process.argv.slice(2);
const saveAt = args.indexOf('--save');
const saveDir = saveAt >= 0 ? args.splice(saveAt, 2)[1] : undefined;
const rounds = Number(args[0] ?? 2);
const top = Number(args[1] ?? 25);

const workers: Worker[] = [];
subscribe('worker_threads', (m) => workers.push((m as { worker: Worker }).worker));

const all = loadWcxbPages(datasets).sort((a, b) => a.html.length - b.html.length);
const server = await startPageServerProcess(new Map(all.slice(-12).map((p) => [`/${p.id}.html`, p.html])));
// Only the ids stay in this heap: the main thread's snapshot shows what the scrapes keep.
const pages = all
  .slice(-12)
  .reverse()
  .map((p) => ({ id: p.id }));
all.length = 0;
const { Crawlkit } = await loadCrawlkit();
const crawlkit = new Crawlkit({ store: 'memory', engine: 'http', workers: { size: 1 } });
const scrape = wholePageScraper(crawlkit, server.url);

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** The snapshot of `worker`, or of this thread. */
async function snapshotOf(worker: Worker | undefined, name: string): Promise<Snapshot> {
  const stream = worker ? await worker.getHeapSnapshot() : getHeapSnapshot();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString();
  if (saveDir) writeFileSync(join(saveDir, `${name}.heapsnapshot`), text);
  return JSON.parse(text) as Snapshot;
}

/** Self size by (node type, name), names of strings folded into their type. */
function summary(s: Snapshot): Map<string, { count: number; bytes: number }> {
  const fields = s.snapshot.meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
  const types = s.snapshot.meta.node_types[0];
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt]!]!;
    const size = s.nodes[i + sizeAt]!;
    const key = /string|number|code|hidden|array/.test(type) ? type : `${type} ${s.strings[s.nodes[i + nameAt]!]}`;
    const entry = out.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += size;
    out.set(key, entry);
  }
  return out;
}

const total = (m: Map<string, { bytes: number }>) => [...m.values()].reduce((a, b) => a + b.bytes, 0);
const mb = (n: number) => (n / 1e6).toFixed(2);

try {
  await scrape(pages[0]!.id);
  const worker = workers[0]!;
  const first = summary(await snapshotOf(worker, 'first'));
  for (let r = 0; r < rounds; r++) for (const page of pages) await scrape(page.id);
  const later = summary(await snapshotOf(worker, 'later'));
  const main = summary(await snapshotOf(undefined, 'main'));
  console.log(`main thread's heap after the loop: ${mb(total(main))} MB`);
  console.log(
    `worker heap after one page ${mb(total(first))} MB, after ${rounds} rounds of 12: ${mb(total(later))} MB`,
  );
  const rows = [...later].map(([key, v]) => {
    const before = first.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: v.count, bytes: v.bytes, dCount: v.count - before.count, dBytes: v.bytes - before.bytes };
  });
  rows.sort((a, b) => b.bytes - a.bytes);
  console.log('largest kinds (self size): MB, count, and the change since the first page');
  for (const row of rows.slice(0, top)) {
    console.log(
      `  ${mb(row.bytes).padStart(7)} ${String(row.count).padStart(8)}  ${mb(row.dBytes).padStart(6)} ${String(row.dCount).padStart(7)}  ${row.key.slice(0, 80)}`,
    );
  }
} finally {
  await crawlkit.close();
  await server.close();
}
