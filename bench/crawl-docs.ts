/**
 * The crawl of a real docs site with markdown, crawlkit beside Crawlee (issue 37's goal: >= 5x the faster Crawlee
 * row): `pnpm bench:crawl-docs` (`--quick`: 100 pages, one round, no Crawlee disk-storage row: a smoke check).
 *
 * The site is the Python 3.11 documentation as Debian's `python3.11-doc` installs it (Sphinx, static HTML in
 * /usr/share/doc/python3.11/html: 530 pages, 51 MB of HTML, median page 54 KB, largest 2.6 MB, real navigation and
 * cross links); `CK_DOCS_SITE=DIR` crawls another folder. It is not in the repository: when it is missing the
 * benchmark says what to install and reports its goals as not measured. bench/lib/static-site.ts serves the folder
 * from its own process (`index.html` for a directory); each runner (bench/lib/crawl-runners.ts, the same as
 * bench/crawl-http.ts's) crawls it from its root in its own process, at the same concurrency and limit, in rounds
 * that alternate the runners' order. The goal is the median over rounds of each round's crawlkit / faster-Crawlee
 * ratio. Writes bench/results/crawl-docs.json.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  CRAWL_NOTES,
  crawlAll,
  crawlkitAndBaseline,
  crawlRows,
  rssVsCrawlee,
  startSiteProcess,
  type RunnerName,
} from './lib/crawl-runners.ts';
import { finish, goal, isQuick, median, type Row } from './lib/report.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const quick = isQuick();
const SITE = process.env['CK_DOCS_SITE'] ?? '/usr/share/doc/python3.11/html';
/** Above the site's 530 pages: the whole site is crawled (the quick run stops at 100). */
const PAGES = Number(process.env['BENCH_PAGES'] ?? (quick ? 100 : 1000));
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? (quick ? 1 : 2));
const GOAL_VS_CRAWLEE = 5;
const RUNNERS = (
  process.env['BENCH_RUNNERS'] ?? (quick ? 'crawlkit,crawlee-memory' : 'crawlkit,crawlee-disk,crawlee-memory')
).split(',') as RunnerName[];

const SPEED_GOAL = `crawl of a real docs site >= ${GOAL_VS_CRAWLEE}x Crawlee's pages/min with markdown on (issue 37)`;
const RSS_GOAL = 'crawl of a real docs site: lower peak RSS than Crawlee';
const COMPLETE_GOAL = 'crawl of a real docs site: crawlkit stores at least the pages Crawlee does';

type Round = Awaited<ReturnType<typeof crawlAll>>;

/** Serves the site from its own process and crawls it `ROUNDS` times, the runners' order alternating. */
async function crawlRounds(): Promise<Round[]> {
  const site = await startSiteProcess(join(here, 'lib', 'static-site.ts'), ['--root', SITE]);
  const settings = { pages: PAGES, concurrency: CONCURRENCY, sampleEvery: Math.max(1, Math.round(PAGES / 10)) };
  const rounds: Round[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? RUNNERS : [...RUNNERS].reverse();
      process.stdout.write(`round ${round + 1} of ${ROUNDS}: ${order.join(', ')}\n`);
      rounds.push(await crawlAll(order, `${site.url}/`, settings));
    }
  } finally {
    site.stop();
  }
  return rounds;
}

async function main(): Promise<void> {
  // The docs are not vendored: without them every goal is reported as not measured, with what to install.
  const missing = existsSync(join(SITE, 'index.html'))
    ? undefined
    : `no docs site at ${SITE}: install Debian's python3.11-doc (as root: apt-get install -y python3.11-doc), ` +
      'or set CK_DOCS_SITE to a folder of static HTML with an index.html';
  if (missing) process.stderr.write(`crawl-docs: ${missing}\n`);
  const rounds = missing ? [] : await crawlRounds();
  const perRound = rounds.map((r) => crawlkitAndBaseline(r.results));
  const speedup = median(perRound.map((r) => r.speedup));
  const rows: Row[] = rounds.flatMap((r, i) =>
    crawlRows(r.results, r.failures).map((row) => ({ round: i + 1, ...row })),
  );
  // Every round's figures are in the table; the RSS and completeness goals read the last round.
  const last = rounds.at(-1)?.results ?? [];
  const { crawlkit, crawlee } = crawlkitAndBaseline(last);
  const [rssMeasured, rssTarget, rssValue] = rssVsCrawlee(last);
  const value = (measured: string) => (missing ? `(${missing})` : measured);
  finish({
    name: 'crawl-docs',
    title:
      `Crawl of a real docs site (${SITE}, limit ${PAGES}), HTTP engine, markdown, concurrency ${CONCURRENCY}, ` +
      `${ROUNDS} round(s)${missing ? ': not measured' : ''}`,
    quick,
    rows,
    goals: [
      goal(
        'crawl-docs.vs-crawlee-5x',
        SPEED_GOAL,
        speedup,
        GOAL_VS_CRAWLEE,
        value(
          `${speedup.toFixed(2)}x, median of ${perRound.length} round(s): ${perRound.map((r) => r.speedValue).join('; ')}`,
        ),
      ),
      goal('crawl-docs.rss', RSS_GOAL, rssMeasured, rssTarget, value(rssValue)),
      goal(
        'crawl-docs.complete',
        COMPLETE_GOAL,
        // Crawlee may finish the requests in flight past its maxRequestsPerCrawl: the limit caps what is expected.
        crawlkit.pages - Math.min(crawlee.pages, PAGES),
        0,
        value(`${crawlkit.pages} vs ${crawlee.pages} pages (${crawlee.runner}; limit ${PAGES})`),
      ),
    ],
    data: { site: SITE, pages: PAGES, concurrency: CONCURRENCY, rounds },
    notes: [
      ...CRAWL_NOTES,
      'crawlkit: ck.crawl() from the root, formats markdown, onlyMainContent (the default): the main content of each ' +
        'page as markdown, stored in its SQLite store, read through ck.watch().',
      'Crawlee: CheerioCrawler from the root, turndown (atx headings, fenced code) over the whole <body>, ' +
        'pushData into its dataset, enqueueLinks same-hostname.',
      `Both stop at ${PAGES} pages; the goal is the median over rounds of each round's ratio to the faster Crawlee row.`,
    ],
  });
}

await main();
