/**
 * Recrawl benchmark (issue 41): `pnpm build && node bench/recrawl.ts [--quick]`.
 *
 * A local site of 300 pages (60 with --quick) that sends `ETag` and `Last-Modified`, crawled with a change feed on the
 * on-disk store, then crawled again unchanged (`maxAge: 1`, so every page is past it and refetched conditionally):
 * - first crawl: every page fetched and extracted;
 * - recrawl, same engine: every page answers 304; the confirmed copy's extraction is memoised in the engine;
 * - recrawl, new engine on the same store (what a new process sees): 304s, each copy extracted again from the cache;
 * - recrawl without validators (the site stops sending them): what every recrawl cost before.
 * Each round uses a fresh store; each engine is started by an untimed scrape first; rows are the medians of the rounds,
 * in wall time and in CPU time of the process (every thread: on a shared machine the CPU time moves less with the
 * load than the wall time). Goal: a recrawl of the unchanged site under 25% of
 * the first crawl's time, with the change feed all `same`. Writes bench/results/recrawl.json.
 */
import { subscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type Document } from 'crawlkit';

import { startChangingSite, type ChangingPage } from '../fixtures/changing-site.ts';
import { finish, goal, isQuick, median, type Row } from './lib/report.ts';

const quick = isQuick();
const PAGES = quick ? 60 : 300;
const ROUNDS = quick ? 1 : 3;

const words = 'plane iron bevel hone strop burr edge angle stone grit flatten back chip breaker sole mouth'.split(' ');
function pageText(index: number): string {
  const paragraphs: string[] = [];
  for (let p = 0; p < 30; p++) {
    const sentence: string[] = [];
    for (let w = 0; w < 36; w++) sentence.push(words[(index * 7 + p * 13 + w * 5) % words.length]!);
    paragraphs.push(`Paragraph ${p} of page ${index}: ${sentence.join(' ')}.`);
  }
  return paragraphs.join('\n');
}

const initial: Record<string, ChangingPage> = {};
for (let i = 0; i < PAGES - 1; i++) {
  initial[`/p/${i}.html`] = { title: `Page ${i}`, text: pageText(i), modifiedAt: Date.UTC(2026, 0, 1) };
}
const site = await startChangingSite(initial);
const body = { url: `${site.url}/`, tag: 'bench', limit: PAGES, scrapeOptions: { maxAge: 1 } };

/** Wall time and CPU time (user + system, every thread of the process: the site, the engine, its workers). */
async function timedCrawl(ck: Crawlkit): Promise<{ ms: number; cpuMs: number; documents: Document[] }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const answer = await ck.crawl(body);
  if (!('id' in answer)) throw new Error(`crawl refused: ${JSON.stringify(answer)}`);
  const done = await ck.waitForJob(answer.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, documents: done.data };
}

const names = ['first crawl', 'recrawl, same engine', 'recrawl, new engine', 'recrawl, no validators'] as const;
const times: Record<(typeof names)[number], number[]> = Object.fromEntries(names.map((n) => [n, []])) as never;
const cpuTimes: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const notModified: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
/** Milliseconds per scrape stage, summed over each row's pages (last round), from crawlkit's timings channel. */
const stages: Record<string, Record<string, number>> = {};
let current = '';
subscribe('crawlkit:scrape:timings', (message) => {
  const row = (stages[current] ??= {});
  for (const { name, ms } of (message as { stages: { name: string; ms: number }[] }).stages) {
    row[name] = (row[name] ?? 0) + ms;
  }
});
let allSame = true;
let pagesCrawled = 0;

for (let round = 0; round < ROUNDS; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-recrawl-'));
  const options = { storeDir: dir, engine: 'http' as const };
  const run = async (name: (typeof names)[number], ck: Crawlkit) => {
    site.resetCounts();
    current = name;
    stages[name] = {};
    const { ms, cpuMs, documents } = await timedCrawl(ck);
    times[name].push(ms);
    cpuTimes[name]!.push(cpuMs);
    notModified[name]!.push([...site.notModified.values()].reduce((a, b) => a + b, 0));
    if (name === 'first crawl') pagesCrawled = documents.length;
    else if (name !== 'recrawl, no validators') {
      allSame &&= documents.length === pagesCrawled && documents.every((d) => d.metadata.crawlChange === 'same');
    }
  };
  // Each engine is started (store, extraction workers) by an untimed scrape: the rows time crawls, not start-ups.
  const started = async () => {
    const ck = new Crawlkit(options);
    await ck.scrape({ url: `${site.url}/robots.txt`, maxAge: 0, storeInCache: false });
    return ck;
  };
  const first = await started();
  await run('first crawl', first);
  await run('recrawl, same engine', first);
  await first.close();
  const second = await started();
  await run('recrawl, new engine', second);
  await second.close();
  // The same site without validators: each page comes whole and is extracted again.
  const third = await started();
  site.validators = false;
  await run('recrawl, no validators', third);
  site.validators = true;
  await third.close();
  rmSync(dir, { recursive: true, force: true });
}
await site.close();

const firstMs = median(times['first crawl']);
const rows: Row[] = names.map((name) => ({
  crawl: name,
  pages: pagesCrawled,
  'median ms': Math.round(median(times[name])),
  'vs first': Math.round((median(times[name]) / firstMs) * 1000) / 10,
  'cpu ms': Math.round(median(cpuTimes[name]!)),
  'cpu vs first': Math.round((median(cpuTimes[name]!) / median(cpuTimes['first crawl']!)) * 1000) / 10,
  '304s': median(notModified[name]!),
}));
const recrawl = Math.max(median(times['recrawl, same engine']), median(times['recrawl, new engine']));

finish({
  name: 'recrawl',
  title: `recrawl of an unchanged ${PAGES}-page site with a change feed, beside the first crawl (${ROUNDS} rounds)`,
  quick,
  columns: ['crawl', 'pages', 'median ms', 'vs first', 'cpu ms', 'cpu vs first', '304s'],
  rows,
  goals: [
    goal(
      'recrawl.unchanged',
      'recrawl of an unchanged site < 25% of the first crawl, feed all same',
      allSame ? recrawl / firstMs : Number.POSITIVE_INFINITY,
      0.25,
      `${((recrawl / firstMs) * 100).toFixed(1)}% (slower of the two recrawls; feed all same: ${allSame})`,
      { atMost: true },
    ),
  ],
  data: { times, cpuTimes, notModified, stages, pages: pagesCrawled, rounds: ROUNDS },
  notes: names.map(
    (name) =>
      `${name.padEnd(24)} stage ms (summed over pages): ` +
      Object.entries(stages[name] ?? {})
        .map(([stage, ms]) => `${stage} ${Math.round(ms)}`)
        .join(', '),
  ),
});
