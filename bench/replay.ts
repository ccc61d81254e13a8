/**
 * Replay benchmark (issue 41): `pnpm build && node bench/replay.ts [--quick]`.
 *
 * The generated site of the crawl benchmark (`bench/lib/generated-site.ts`, pages of 10–30 KB), 300 pages (60 with
 * --quick), crawled over HTTP in the same run three ways, each round on a fresh
 * on-disk store and engine (started by an untimed scrape first):
 * - live crawl: every page fetched from the site and extracted;
 * - live crawl with `record: true`: the same, writing every response to a WARC file (what recording costs);
 * - replay: the recording crawled again with `engine: 'replay'` and the site's server stopped, every client socket
 *   the process opens counted (`net.client.socket`). Its engine's warm-up scrape indexes the WARC file; the time to
 *   index it (streamed) is measured apart and printed as a note.
 * Rows are the medians of the rounds. Goal: replay at least as fast as the live crawl, with zero sockets and the same
 * documents. Writes bench/results/replay.json.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { indexWarc } from '@crawlkit/fetcher/warc';
import { Crawlkit, type CrawlkitOptions, type Document } from 'crawlkit';

import { serveGeneratedSite } from './lib/generated-site.ts';
import { finish, goal, isQuick, median, type Row } from './lib/report.ts';

const quick = isQuick();
const PAGES = quick ? 60 : 300;
const ROUNDS = quick ? 1 : 3;

const names = ['live crawl', 'live crawl, record: true', 'replay, server stopped'] as const;
type Name = (typeof names)[number];
const times: Record<Name, number[]> = {
  'live crawl': [],
  'live crawl, record: true': [],
  'replay, server stopped': [],
};
let replaySockets = 0;
let sameDocuments = true;
let pagesCrawled = 0;
let warcBytes = 0;
const indexMs: number[] = [];

const markdownByUrl = (documents: Document[]) =>
  JSON.stringify(
    documents.map((d) => [d.metadata.sourceURL, d.markdown]).sort(([a], [b]) => String(a).localeCompare(String(b))),
  );

async function started(options: CrawlkitOptions, warmUrl: string): Promise<Crawlkit> {
  const ck = new Crawlkit(options);
  // Starts the store and the extraction workers (and indexes the recording): the rows time crawls, not start-ups.
  await ck.scrape({ url: warmUrl, maxAge: 0, storeInCache: false });
  return ck;
}

async function timedCrawl(ck: Crawlkit, url: string, record: boolean) {
  const begun = performance.now();
  const answer = await ck.crawl({ url, limit: PAGES, record });
  if (!('id' in answer)) throw new Error(`crawl refused: ${JSON.stringify(answer)}`);
  const done = await ck.waitForJob(answer.id);
  if (!done.success || done.status !== 'completed') throw new Error(`crawl ended ${JSON.stringify(done)}`);
  return { ms: performance.now() - begun, documents: done.data, warcFile: done.warcFile };
}

for (let round = 0; round < ROUNDS; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'ck-bench-replay-'));
  // No cross links: their `?ref=` variants make the set of URLs a limited crawl reaches depend on timing.
  const site = await serveGeneratedSite({ pages: PAGES, crossLinks: 0 });
  const seed = `${site.url}/`;
  const live = await started({ storeDir: join(dir, 'live'), engine: 'http' }, `${site.url}/robots.txt`);
  const plain = await timedCrawl(live, seed, false);
  await live.close();
  const recorder = await started({ storeDir: join(dir, 'record'), engine: 'http' }, `${site.url}/robots.txt`);
  const recorded = await timedCrawl(recorder, seed, true);
  await recorder.close();
  await site.close();
  times['live crawl'].push(plain.ms);
  times['live crawl, record: true'].push(recorded.ms);
  pagesCrawled = plain.documents.length;
  warcBytes = statSync(recorded.warcFile!).size;

  const indexStart = performance.now();
  await indexWarc(recorded.warcFile!);
  indexMs.push(performance.now() - indexStart);
  const files = [recorded.warcFile!];
  const replay = await started(
    { storeDir: join(dir, 'replay'), engine: 'replay', replay: { files } },
    `${seed}robots.txt`,
  );
  let sockets = 0;
  const count = () => sockets++;
  subscribe('net.client.socket', count);
  const replayed = await timedCrawl(replay, seed, false);
  unsubscribe('net.client.socket', count);
  await replay.close();
  times['replay, server stopped'].push(replayed.ms);
  replaySockets += sockets;
  const same = markdownByUrl(replayed.documents) === markdownByUrl(plain.documents);
  if (!same) console.error(`round ${round}: the replayed documents differ from the live crawl's`);
  sameDocuments &&= same && replayed.documents.length === PAGES;
  rmSync(dir, { recursive: true, force: true });
}

const liveMs = median(times['live crawl']);
const replayMs = median(times['replay, server stopped']);
const rows: Row[] = names.map((name) => ({
  crawl: name,
  pages: pagesCrawled,
  'median ms': Math.round(median(times[name])),
  'pages/s': Math.round((pagesCrawled / median(times[name])) * 1000),
  'vs live': Math.round((median(times[name]) / liveMs) * 100) / 100,
}));

finish({
  name: 'replay',
  title: `replay of a recorded ${PAGES}-page crawl beside the live crawl (${ROUNDS} rounds)`,
  quick,
  columns: ['crawl', 'pages', 'median ms', 'pages/s', 'vs live'],
  rows,
  goals: [
    goal(
      'replay.vs-live',
      'replay at least as fast as live, zero sockets',
      replaySockets === 0 && sameDocuments ? liveMs / replayMs : Number.POSITIVE_INFINITY,
      1,
      `${(liveMs / replayMs).toFixed(2)}x the live crawl's speed; sockets opened: ${replaySockets}; same documents: ${sameDocuments}`,
    ),
  ],
  data: { times, pages: pagesCrawled, rounds: ROUNDS, replaySockets, sameDocuments, warcBytes, indexMs },
  notes: [
    `WARC file of the recorded crawl: ${(warcBytes / 1024).toFixed(0)} KiB for ${pagesCrawled} pages, indexed ` +
      `(streamed) in ${Math.round(median(indexMs))} ms`,
  ],
});
