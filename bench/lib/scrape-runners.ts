// The rows of bench/scrape-http.ts: each turns a list of URLs into output at a given concurrency. Each runs in
// its own child process (so its peak RSS is its own), built once, then timed over the URLs. Each imports its
// libraries when created, so a child loads only its own row's code.

import { loadCrawlkit } from './crawlkit-build.ts';

/** What one page produced: output characters (0 = failure), so a runner that skips work shows. */
export type PageFn = (url: string) => Promise<number>;

export interface Runner {
  /** Processes `urls` with at most `concurrency` pages at once; returns the output characters of each page. */
  run(urls: readonly string[]): Promise<number[]>;
  /** Why pages failed so far: error code (or message) → count. */
  errors: Map<string, number>;
  close(): Promise<void>;
}

const count = (errors: Map<string, number>, key: string) => errors.set(key, (errors.get(key) ?? 0) + 1);

export const RUNNER_NAMES = ['crawlkit', 'crawlkit-batch', 'naive', 'floor'] as const;
export type RunnerName = (typeof RUNNER_NAMES)[number];

/** `concurrency` async loops taking URLs in order. */
async function pool(
  urls: readonly string[],
  concurrency: number,
  page: PageFn,
  errors: Map<string, number>,
): Promise<number[]> {
  const out: number[] = Array.from({ length: urls.length }, () => 0);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, urls.length) }, async () => {
      while (next < urls.length) {
        const i = next++;
        try {
          out[i] = await page(urls[i]!);
        } catch (error) {
          out[i] = 0;
          count(errors, (error as { code?: string }).code ?? (error as Error).name);
        }
      }
    }),
  );
  return out;
}

/**
 * crawlkit: `scrape()` with markdown, links and metadata of the main content (v2 defaults otherwise), HTTP engine,
 * memory store, cache off. Every URL is submitted at once; the engine's own queue sets the concurrency
 * (`undefined` = the engine default).
 */
async function crawlkitRunner(concurrency: number | undefined): Promise<Runner> {
  // CK_BENCH_CRAWLKIT: another build of the package (its dist/index.js): the rows run on it instead of this one, so an
  // A/B of two builds alternates whole runs.
  const { Crawlkit } = await loadCrawlkit();
  const engine = new Crawlkit({
    store: 'memory',
    engine: 'http',
    ...(concurrency === undefined ? {} : { concurrency }),
    // Set by bench/scrape-http.ts for its one-thread row (workers.size 0: extraction on the main thread).
    ...(process.env['CK_BENCH_WORKERS'] === undefined
      ? {}
      : { workers: { size: Number(process.env['CK_BENCH_WORKERS']) } }),
  });
  const errors = new Map<string, number>();
  return {
    errors,
    run: (urls) =>
      Promise.all(
        urls.map(async (url) => {
          const res = await engine.scrape({
            url,
            formats: ['markdown', 'links'],
            onlyMainContent: true,
            maxAge: 0,
            storeInCache: false,
          });
          if (!res.success) {
            count(errors, res.code ?? res.error);
            return 0;
          }
          const doc = res.data;
          return (doc.markdown?.length ?? 0) + (doc.links?.length ?? 0) + Object.keys(doc.metadata ?? {}).length;
        }),
      ),
    close: () => engine.close(),
  };
}

/**
 * crawlkit as a user gets it for a list of URLs: `batchScrape()` with markdown and links of the main content on the
 * default configuration (the on-disk SQLite store, the page cache on, the worker pool on, the default concurrency),
 * the HTTP engine as the floor's; the documents are read back with `waitForJob()`. One job per batch of URLs.
 */
async function crawlkitBatchRunner(): Promise<Runner> {
  const [{ Crawlkit }, fs, os, path] = await Promise.all([
    loadCrawlkit(),
    import('node:fs'),
    import('node:os'),
    import('node:path'),
  ]);
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-bench-batch-'));
  const engine = new Crawlkit({ storeDir, engine: 'http' });
  const errors = new Map<string, number>();
  return {
    errors,
    async run(urls) {
      const started = await engine.batchScrape({ urls: [...urls], formats: ['markdown', 'links'] });
      if (!started.success) throw new Error(started.error);
      const done = await engine.waitForJob(started.id);
      if (!done.success) throw new Error(done.error);
      const out = done.data.map(
        (doc) => (doc.markdown?.length ?? 0) + (doc.links?.length ?? 0) + Object.keys(doc.metadata ?? {}).length,
      );
      for (let i = out.length; i < urls.length; i++) {
        out.push(0);
        count(errors, 'NO_DOCUMENT');
      }
      return out;
    },
    async close() {
      await engine.close();
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/**
 * The naive pipeline of the usual libraries: global `fetch`, jsdom, links and meta tags from the DOM, then
 * Readability.js for the main content and turndown + GFM for its markdown.
 */
async function naiveRunner(concurrency: number): Promise<Runner> {
  const [{ Readability }, { JSDOM, VirtualConsole }, { default: TurndownService }, { gfm }] = await Promise.all([
    import('@mozilla/readability'),
    import('jsdom'),
    import('turndown'),
    import('turndown-plugin-gfm'),
  ]);
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.use(gfm);
  const virtualConsole = new VirtualConsole();
  const page: PageFn = async (url) => {
    const res = await fetch(url);
    const html = await res.text();
    const dom = new JSDOM(html, { url, virtualConsole });
    try {
      const doc = dom.window.document;
      const links = new Set<string>();
      for (const a of doc.querySelectorAll('a[href]')) links.add((a as unknown as { href: string }).href);
      const metadata: Record<string, string> = { title: doc.title };
      for (const meta of doc.querySelectorAll('meta[content]')) {
        const key = meta.getAttribute('name') ?? meta.getAttribute('property');
        if (key) metadata[key] = meta.getAttribute('content')!;
      }
      const article = new Readability(doc).parse();
      const markdown = article?.content ? td.turndown(article.content) : '';
      return markdown.length + links.size + Object.keys(metadata).length;
    } finally {
      dom.window.close();
    }
  };
  const errors = new Map<string, number>();
  return { errors, run: (urls) => pool(urls, concurrency, page, errors), close: () => Promise.resolve() };
}

/**
 * The parse-only floor: undici `request` on a keep-alive agent, then the page through htmlparser2's `Parser` with no
 * handlers (tokenising and tag balancing, no DOM, no output). No scraper built on htmlparser2 can beat it.
 */
async function floorRunner(concurrency: number): Promise<Runner> {
  const [{ Parser }, { Agent, request }] = await Promise.all([import('htmlparser2'), import('undici')]);
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 60_000 });
  const page: PageFn = async (url) => {
    const { statusCode, body } = await request(url, { dispatcher: agent });
    const html = await body.text();
    if (statusCode !== 200) throw Object.assign(new Error(`HTTP ${statusCode}`), { code: `HTTP_${statusCode}` });
    new Parser({}).end(html);
    return html.length;
  };
  const errors = new Map<string, number>();
  return { errors, run: (urls) => pool(urls, concurrency, page, errors), close: () => agent.close() };
}

/** `concurrency` undefined means crawlkit's default; the reference rows then use `defaultConcurrency`. */
export function createRunner(
  name: RunnerName,
  concurrency: number | undefined,
  defaultConcurrency: number,
): Promise<Runner> {
  switch (name) {
    case 'crawlkit':
      return crawlkitRunner(concurrency);
    case 'crawlkit-batch':
      return crawlkitBatchRunner();
    case 'naive':
      return naiveRunner(concurrency ?? defaultConcurrency);
    case 'floor':
      return floorRunner(concurrency ?? defaultConcurrency);
  }
}
