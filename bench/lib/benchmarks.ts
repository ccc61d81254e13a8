// The benchmarks `bench/run.ts` runs, in order, with their time limits and the goal ids each one reports (a goal it
// fails to report shows in the summary as such).
import type { ExpectedGoal } from './summary.ts';

export interface Benchmark {
  name: string;
  /** Script under bench/: `<name>.ts`. */
  file: string;
  /** Extra arguments of the quick run (`--quick` is always passed then). */
  quickArgs: string[];
  /** Time limits in minutes of the full and the quick run (a loaded shared machine can be 5x slower). */
  limitMin: { full: number; quick: number };
  /** The goals this benchmark reports (ids, wording as printed when it could not report them), so that a missing
   * one shows in the summary; `issue` marks the goals of issue 11. */
  goals: ExpectedGoal[];
}

/** `[id, wording]` pairs of issue 11's goals (first list) and of the benchmark's own (second). */
type GoalList = readonly (readonly [string, string])[];

function benchmark(
  name: string,
  limitMin: { full: number; quick: number },
  issueGoals: GoalList = [],
  ownGoals: GoalList = [],
  quickArgs: string[] = [],
): Benchmark {
  const goals = [
    ...issueGoals.map(([id, goal]) => ({ id, goal, issue: true })),
    ...ownGoals.map(([id, goal]) => ({ id, goal, issue: false })),
  ];
  return { name, file: `${name}.ts`, quickArgs, limitMin, goals };
}

// Expected minutes on 2 quiet cores (bench/README.md "Durations"): the limits leave room for a loaded machine.
export const BENCHMARKS: Benchmark[] = [
  benchmark(
    'extract',
    { full: 25, quick: 3 },
    [],
    [['extract.f1', 'extract: F1 >= 0.86 with without-snippets <= 8% (extractor target)']],
  ),
  benchmark(
    'markdown',
    { full: 12, quick: 3 },
    [
      ['markdown.vs-turndown', 'markdown >= 4x turndown at the median page'],
      ['markdown.linear', 'markdown linear in size'],
    ],
    [
      ['markdown.big-pages', "big pages: whole scrape() with markdown >= 4x turndown's conversion alone"],
      ['markdown.whole-page', 'whole-page markdown scrape() >= 3x turndown of the same whole page'],
      ['markdown.memory', 'markdown peak memory <= 5x input size'],
      ['markdown.round-trip', 'markdown CommonMark round trip at least turndown+gfm'],
      ['markdown.round-trip-raw-html', 'markdown CommonMark round trip in raw-HTML mode >= 95% (issue 42)'],
    ],
  ),
  benchmark(
    'hostile',
    { full: 15, quick: 3 },
    [],
    [
      ['hostile.linear', 'hostile: every shape linear'],
      ['hostile.vs-median', "hostile: every shape within 10x the median page's time per MB"],
      ['hostile.pdf-bomb', 'hostile: a 1 GiB PDF content stream never held'],
      ['hostile.pdf-pages', 'hostile: a 20,000-page PDF parses at most 1,000 pages by default'],
    ],
  ),
  benchmark('scrape-http', { full: 20, quick: 3 }, [
    ['scrape-http.vs-naive', "scrape-http >= 5x the naive pipeline's pages/s"],
    ['scrape-http.vs-floor', 'scrape-http within 3x of the parse-only floor'],
    ['scrape-http.vs-one-thread', 'scrape-http with its worker pool >= 1.7x extraction on the main thread'],
    ['scrape-http.vs-floor-pool', 'scrape-http (worker pool on) within 2x of the parse-only floor'],
    ['scrape-http.batch-vs-floor', 'batchScrape() at the default configuration within 3x of the parse-only floor'],
    ['scrape-http.pool-vs-ceiling', "worker pool >= 85% of two bare threads' speed-up"],
  ]),
  benchmark(
    'crawl-http',
    { full: 25, quick: 3 },
    [
      ['crawl-http.vs-crawlee', "crawl-http >= 1.5x Crawlee's pages/min with markdown on"],
      ['crawl-http.rss', 'crawl-http lower peak RSS than Crawlee'],
    ],
    [
      ['crawl-http.vs-crawlee-2x', "crawl-http >= 2x Crawlee's pages/min with markdown on (issue 21)"],
      ['crawl-http.flat-memory', 'crawl-http retained heap flat along the crawl'],
      ['crawl-http.complete', 'crawl-http all pages crawled'],
    ],
  ),
  benchmark(
    'crawl-docs',
    { full: 15, quick: 3 },
    [],
    [
      ['crawl-docs.vs-crawlee-5x', "crawl of a real docs site >= 5x Crawlee's pages/min with markdown on (issue 37)"],
      ['crawl-docs.rss', 'crawl of a real docs site: lower peak RSS than Crawlee'],
      ['crawl-docs.complete', 'crawl of a real docs site: crawlkit stores at least the pages Crawlee does'],
    ],
  ),
  benchmark('browser', { full: 20, quick: 4 }, [
    ['browser.vs-crawlee', "browser >= 1.3x Crawlee's rendered pages/s"],
    ['browser.leftovers', 'browser: zero Chromium processes left'],
    ['browser.memory', "browser: peak Chromium PSS no higher than Crawlee's"],
  ]),
  benchmark(
    'browser-cpu',
    { full: 12, quick: 4 },
    [],
    [
      [
        'browser-cpu.vs-context-floor',
        "browser-cpu: crawlkit's CPU per page within 1.2x plain puppeteer's with a context per page",
      ],
    ],
  ),
  benchmark(
    'cache',
    { full: 10, quick: 2 },
    [['cache.hit-vs-miss', 'cache hit >= 50x faster than a miss']],
    [
      ['cache.hit-vs-miss-interface', 'cache hit >= 5x faster than a miss (interface)'],
      ['cache.disk-hit-vs-miss', 'disk hit (no hot tier) >= 5x faster than a miss'],
    ],
  ),
  benchmark(
    'recrawl',
    { full: 10, quick: 3 },
    [],
    [
      ['recrawl.unchanged', 'recrawl of an unchanged site < 25% of the first crawl, feed all same'],
      ['recrawl.newProcess', 'recrawl in a new process < 25% of a first crawl in a new process, feed all same'],
    ],
  ),
  benchmark('recrawl-floor', { full: 4, quick: 2 }),
  benchmark('replay', { full: 6, quick: 2 }, [], [['replay.vs-live', 'replay at least as fast as live, zero sockets']]),
  benchmark(
    'batch',
    { full: 15, quick: 3 },
    [],
    [
      ['batch.start-10k', 'batchScrape() answers in well under a second'],
      ['batch.bounded-rss', 'batch memory stays bounded along the batch'],
    ],
  ),
  benchmark(
    'actions-batch',
    { full: 15, quick: 3 },
    [],
    [
      ['actions-batch.isolated', "one page's failing flow fails that page alone"],
      ['actions-batch.chromium-pss', 'Chromium peak PSS at most 1 GiB along the batch'],
      ['actions-batch.profiles-left', 'no profile of its Chromium left after close()'],
    ],
  ),
  benchmark(
    'change-tracking',
    { full: 10, quick: 2 },
    [],
    [
      ['change-verdicts', 'change verdicts right on known edits'],
      ['change-cost', 'changeTracking adds < 5 ms per scrape'],
    ],
  ),
  benchmark(
    'branding',
    { full: 10, quick: 3 },
    [],
    [
      ['branding-cost', 'branding adds < 250 ms per page'],
      ['branding-primary', 'expected primary colours of the fixtures'],
    ],
  ),
  benchmark(
    'engine-choice',
    { full: 20, quick: 6 },
    [],
    [
      ['engine-choice.static-never-renders', 'engine-choice: the static site is never rendered (adaptive)'],
      ['engine-choice.app-complete', 'engine-choice: every app page complete (adaptive)'],
      ['engine-choice.learning-cost', 'engine-choice: adaptive within 1.25x of the right fixed engine on each site'],
      ['engine-choice.judge-cost', 'engine-choice: the render judge costs <= 10% of extraction (CPU, WCXB dev)'],
      ['engine-choice.wcxb-to-browser', 'engine-choice: <= 1% of the WCXB dev pages sent to the browser'],
    ],
  ),
  benchmark('distributed', { full: 15, quick: 3 }),
  benchmark('store', { full: 10, quick: 2 }),
  benchmark(
    'search',
    { full: 15, quick: 4 },
    [],
    [
      ['search.index-cost', 'the search index slows a crawl by <= 10%'],
      ['search.latency', 'search over 10,000 stored pages: median < 100 ms (SQLite)'],
    ],
  ),
  benchmark('monitor-checks', { full: 5, quick: 2 }),
  benchmark('monitor-recheck', { full: 5, quick: 2 }),
  benchmark('monitor-close', { full: 5, quick: 2 }),
  benchmark('job-follow', { full: 5, quick: 1 }),
  benchmark('http-overhead', { full: 10, quick: 2 }),
  benchmark('server', { full: 10, quick: 2 }),
  benchmark(
    'tenants',
    { full: 5, quick: 2 },
    [],
    [['tenants.turns', "B's crawl behind A's four batches within 3x its time alone (before the turns: ~10x)"]],
  ),
  benchmark('documents', { full: 15, quick: 4 }),
  benchmark(
    'startup',
    { full: 5, quick: 2 },
    [],
    [
      ['startup.import', "import('crawlkit') <= 250 ms"],
      [
        'startup.first-scrape',
        "first scrape in a new process (import + new Crawlkit() + scrape to markdown) <= Crawlee's",
      ],
    ],
  ),
  benchmark('cli-start', { full: 3, quick: 1 }, [], [['cli-start.version', '`crawlkit --version` <= 150 ms of CPU']]),
  benchmark('memory', { full: 30, quick: 6 }),
  benchmark('embedded-memory', { full: 10, quick: 3 }),
  benchmark('big-page-memory', { full: 6, quick: 2 }),
];
