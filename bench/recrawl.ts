/**
 * Recrawl benchmark (issue 41): `pnpm build && node bench/recrawl.ts [--quick]`.
 *
 * A local site of 300 pages (60 with --quick) that sends `ETag` and `Last-Modified`, crawled with a change feed on the
 * on-disk store, then crawled again unchanged (`maxAge: 1`, so every page is past it and refetched conditionally):
 * - first crawl: every page fetched and extracted;
 * - recrawl, same engine: every page answers 304; the confirmed copy's extraction is memoised in the engine;
 * - recrawl, new engine on the same store (what a user's next run sees): timed from `new Crawlkit()` (the store's
 *   open and whatever the recrawl starts count), 304s, each copy's extraction read from the store;
 * - recrawl without validators (the site stops sending them): what every recrawl cost before.
 * Each round uses a fresh store. The first engine (first crawl, same-engine recrawl) and the no-validators one are
 * started by an untimed scrape first (the extraction threads up: the first crawl is timed at its fastest); the new
 * engine is not (a scrape would start the threads, which a recrawl of an unchanged site never needs). Rows are the medians of the rounds,
 * in wall time and in CPU time of the process (every thread: on a shared machine the CPU time moves less with the
 * load than the wall time). Goal: a recrawl of the unchanged site under 25% of
 * the first crawl's time, with the change feed all `same`. A note says how many search texts a crawl's process left
 * unindexed when it ended (0: its store's `close()` indexed them). Writes bench/results/recrawl.json.
 */
import { execFile } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Crawlkit, type Document } from 'crawlkit';

import { startRecrawlSite } from './lib/recrawl-site.ts';
import { finish, goal, isQuick, median, type Row } from './lib/report.ts';

/**
 * With `CK_BENCH_PHASES=1`, a child prints to stderr where its time went: wall / CPU ms from `new Crawlkit()` at the
 * engine's construction, `crawl()`'s answer, the first, middle and last page's scrape, `waitForJob` and `close()`.
 */
function childPhases(cpu: NodeJS.CpuUsage, started: number, pages: number) {
  const marks: string[] = [];
  const mark = (name: string) => {
    const used = process.cpuUsage(cpu);
    marks.push(`${name} ${Math.round(performance.now() - started)}/${Math.round((used.user + used.system) / 1000)}`);
  };
  let scraped = 0;
  subscribe('crawlkit:scrape:timings', () => {
    scraped++;
    if (scraped === 1 || scraped === Math.ceil(pages / 2) || scraped === pages) mark(`page${scraped}`);
  });
  return { mark, print: () => console.error(marks.join('  ')) };
}

/** `--child URL DIR LIMIT`: one crawl of the site in this new process (a user's cron run), its figures printed as JSON. */
const childAt = process.argv.indexOf('--child');
if (childAt >= 0) {
  const [url, dir, limit] = process.argv.slice(childAt + 1);
  const cpu = process.cpuUsage();
  const mainCpu = process.threadCpuUsage();
  const started = performance.now();
  const phases = process.env.CK_BENCH_PHASES ? childPhases(cpu, started, Number(limit)) : undefined;
  const ck = new Crawlkit({ storeDir: dir!, engine: 'http' });
  phases?.mark('ctor');
  const answer = await ck.crawl({ url: url!, tag: 'bench', limit: Number(limit), scrapeOptions: { maxAge: 1 } });
  phases?.mark('answer');
  if (!('id' in answer)) throw new Error(`crawl refused: ${JSON.stringify(answer)}`);
  const done = await ck.waitForJob(answer.id);
  phases?.mark('waited');
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  await ck.close();
  phases?.mark('closed');
  phases?.print();
  const used = process.cpuUsage(cpu);
  const mainUsed = process.threadCpuUsage(mainCpu);
  const ms = performance.now() - started;
  const same = done.data.every((d) => d.metadata.crawlChange === 'same');
  // What this process left to the next one to index (its store's close writes what waits, for a bounded time).
  const db = new DatabaseSync(join(dir!, 'crawlkit.db'), { readOnly: true });
  const { n: unindexed } = db.prepare('SELECT count(*) AS n FROM search_unindexed').get() as { n: number };
  db.close();
  console.log(
    JSON.stringify({
      ms,
      cpuMs: (used.user + used.system) / 1000,
      mainCpuMs: (mainUsed.user + mainUsed.system) / 1000,
      pages: done.data.length,
      same,
      unindexed,
    }),
  );
  process.exit(0);
}

const quick = isQuick();
const PAGES = quick ? 60 : 300;
const ROUNDS = quick ? 1 : 3;

const site = await startRecrawlSite(PAGES);
const body = { url: `${site.url}/`, tag: 'bench', limit: PAGES, scrapeOptions: { maxAge: 1 } };

/** Wall time and CPU time (user + system, every thread of the process: the site, the engine, its workers). */
async function timedCrawl(
  engine: Crawlkit | (() => Crawlkit),
): Promise<{ ms: number; cpuMs: number; documents: Document[]; ck: Crawlkit }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const ck = typeof engine === 'function' ? engine() : engine;
  const answer = await ck.crawl(body);
  if (!('id' in answer)) throw new Error(`crawl refused: ${JSON.stringify(answer)}`);
  const done = await ck.waitForJob(answer.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, documents: done.data, ck };
}

interface ProcessCrawl {
  ms: number;
  cpuMs: number;
  pages: number;
  same: boolean;
  /** Search texts the process left unindexed in the store. */
  unindexed: number;
}

/**
 * A crawl in a new Node process (what a cron run costs): from `new Crawlkit()` to its `close()`, with cold code (no
 * JIT yet) and nothing started; Node's start-up and the loading of crawlkit's modules are left out (the same for
 * every run). CPU time is the child's alone (the site runs in this process).
 */
async function processCrawl(dir: string): Promise<ProcessCrawl> {
  const script = fileURLToPath(import.meta.url);
  const { stdout } = await promisify(execFile)(process.execPath, [
    ...process.execArgv,
    script,
    '--child',
    body.url,
    dir,
    String(PAGES),
  ]);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ProcessCrawl;
}

const names = [
  'first crawl',
  'recrawl, same engine',
  'recrawl, new engine',
  'recrawl, no validators',
  'first crawl, new process',
  'recrawl, new process',
] as const;
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
let processSame = true;
/** The most search texts a crawl's process left for a later one to index (the store's close indexes them). */
let leftUnindexed = 0;
let pagesCrawled = 0;

for (let round = 0; round < ROUNDS; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-recrawl-'));
  const options = { storeDir: dir, engine: 'http' as const };
  const run = async (name: (typeof names)[number], engine: Crawlkit | (() => Crawlkit)) => {
    site.resetCounts();
    current = name;
    stages[name] = {};
    const { ms, cpuMs, documents, ck } = await timedCrawl(engine);
    times[name].push(ms);
    cpuTimes[name]!.push(cpuMs);
    notModified[name]!.push([...site.notModified.values()].reduce((a, b) => a + b, 0));
    if (name === 'first crawl') pagesCrawled = documents.length;
    else if (name !== 'recrawl, no validators') {
      allSame &&= documents.length === pagesCrawled && documents.every((d) => d.metadata.crawlChange === 'same');
    }
    return ck;
  };
  // Started (store, extraction workers) by an untimed scrape: these rows time crawls, not start-ups.
  const started = async () => {
    const ck = new Crawlkit(options);
    await ck.scrape({ url: `${site.url}/robots.txt`, maxAge: 0, storeInCache: false });
    return ck;
  };
  const first = await started();
  await run('first crawl', first);
  await run('recrawl, same engine', first);
  await first.close();
  const second = await run('recrawl, new engine', () => new Crawlkit(options));
  await second.close();
  // The same site without validators: each page comes whole and is extracted again.
  const third = await started();
  site.validators = false;
  await run('recrawl, no validators', third);
  site.validators = true;
  await third.close();
  rmSync(dir, { recursive: true, force: true });
  // The same two crawls, each in a process of its own on a fresh store.
  const processDir = mkdtempSync(join(tmpdir(), 'ck-bench-recrawl-'));
  for (const name of ['first crawl, new process', 'recrawl, new process'] as const) {
    site.resetCounts();
    const crawled = await processCrawl(processDir);
    times[name].push(crawled.ms);
    cpuTimes[name]!.push(crawled.cpuMs);
    notModified[name]!.push([...site.notModified.values()].reduce((a, b) => a + b, 0));
    if (name === 'recrawl, new process') processSame &&= crawled.pages === pagesCrawled && crawled.same;
    leftUnindexed = Math.max(leftUnindexed, crawled.unindexed);
  }
  rmSync(processDir, { recursive: true, force: true });
}
await site.close();

const firstMs = median(times['first crawl']);
/** The first crawl a row is compared with: the one in this process, or the first crawl in a new process. */
const firstOf = (name: string) => (name.endsWith('new process') ? 'first crawl, new process' : 'first crawl');
const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;
const rows: Row[] = names.map((name) => ({
  crawl: name,
  pages: pagesCrawled,
  'median ms': Math.round(median(times[name])),
  'vs first': percent(median(times[name]), median(times[firstOf(name)])),
  'cpu ms': Math.round(median(cpuTimes[name]!)),
  'cpu vs first': percent(median(cpuTimes[name]!), median(cpuTimes[firstOf(name)]!)),
  '304s': median(notModified[name]!),
}));
const recrawl = Math.max(median(times['recrawl, same engine']), median(times['recrawl, new engine']));
const processRatio = median(times['recrawl, new process']) / median(times['first crawl, new process']);

finish({
  name: 'recrawl',
  title:
    `recrawl of an unchanged ${PAGES}-page site with a change feed, beside the first crawl (${ROUNDS} rounds; ` +
    'the new-process rows against the first crawl in a new process)',
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
    goal(
      'recrawl.newProcess',
      'recrawl in a new process < 25% of a first crawl in a new process, feed all same',
      processSame ? processRatio : Number.POSITIVE_INFINITY,
      0.25,
      `${(processRatio * 100).toFixed(1)}% (a cron run; feed all same: ${processSame})`,
      { atMost: true },
    ),
  ],
  data: { times, cpuTimes, notModified, stages, pages: pagesCrawled, rounds: ROUNDS, leftUnindexed },
  notes: [
    `search texts a crawl's process left unindexed at its end: ${leftUnindexed} (at most, over the new-process rows)`,
  ].concat(
    names.slice(0, 4).map(
      (name) =>
        `${name.padEnd(24)} stage ms (summed over pages): ` +
        Object.entries(stages[name] ?? {})
          .map(([stage, ms]) => `${stage} ${Math.round(ms)}`)
          .join(', '),
    ),
  ),
});
