/**
 * Every method of the latest `@mendable/firecrawl-js` against the built `crawlkit serve` (model from the
 * environment): each works, or fails with a 404 whose message names a Firecrawl endpoint crawlkit does not offer; and
 * the valid options whose answer the sweep of docs/v2-sweep.md found off the spec.
 * Monitors: sdk-monitors.test.ts. The v1 client (`firecrawl.v1`) goes through the v1 routes, translated to v2.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { describe, expect, it } from 'vitest';

import { startReceiver, until } from '../helpers-batch.ts';
import { useClientStack, type ClientStack } from './harness.ts';

let stack: ClientStack;
let fc: Firecrawl;
useClientStack((started) => ([stack, fc] = [started, new Firecrawl({ apiKey: started.key, apiUrl: started.url })]));

const ARTICLE = '/articles/first-post.html';

describe('methods that work', () => {
  it('scrape with the 2026 formats: highlights, question, product, onlyCleanContent, and warnings for audio', async () => {
    const doc = await fc.scrape(stack.page('/shop/plane.html'), {
      formats: [
        'markdown',
        'product',
        'audio',
        { type: 'highlights', query: 'iron bedded degrees' },
        { type: 'question', question: 'What angle is the iron bedded at?' },
      ],
      onlyCleanContent: true,
      integration: 'hermes',
    });
    expect(doc.product).toMatchObject({
      title: 'No. 4 Smoothing Plane',
      brand: 'Acme Tools',
      variants: [{ sku: 'AC-PLANE-4', price: { amount: 129, currency: 'USD' }, availability: { inStock: true } }],
    });
    expect(doc.highlights).toBe(
      'Its iron is bedded at 45 degrees and ships sharpened to 25 degrees with a 30 degree micro-bevel.',
    );
    expect(doc.answer).toContain('bedded at 45 degrees');
    // onlyCleanContent: the header stays, the navigation and the cookie banner go.
    expect(doc.markdown).toContain('Free shipping on orders over $100');
    expect(doc.markdown).not.toContain('Catalogue');
    expect(doc.markdown).not.toContain('Accept all');
    expect(doc.warning).toContain('audio format');
  });

  it('scrape, then getScrape-by-id over raw HTTP, as GET /v2/scrape/:id', async () => {
    const doc = await fc.scrape(stack.page(ARTICLE), { formats: ['markdown'] });
    const id = doc.metadata?.scrapeId;
    const stored = await fetch(`${stack.url}/v2/scrape/${id}`, { headers: { authorization: `Bearer ${stack.key}` } });
    expect(await stored.json()).toMatchObject({ success: true, data: { markdown: doc.markdown } });
  });

  it('search finds the page scraped, by the words of its body, with its document from the cache', async () => {
    const found = await fc.search('sharpening hand plane', { limit: 3, scrapeOptions: { formats: ['markdown'] } });
    const first = found.web?.[0] as { url: string; markdown?: string } | undefined;
    expect(first?.url).toBe(stack.page(ARTICLE));
    expect(first?.markdown).toContain('# Sharpening a Hand Plane');
  });

  it('map, crawl, startCrawl, getCrawlStatus, getCrawlErrors, getActiveCrawls, cancelCrawl', async () => {
    const map = await fc.map(stack.page('/'));
    expect(map.links.map((l) => l.url)).toContain(stack.page(ARTICLE));

    const job = await fc.crawl(stack.page('/'), { limit: 4, sitemap: 'skip', pollInterval: 1 });
    expect(job).toMatchObject({ status: 'completed', completed: 4, total: 4 });
    expect(job.data).toHaveLength(4);
    expect((await fc.getCrawlErrors(job.id)).errors).toEqual([]);

    const running = await fc.startCrawl(stack.page('/slow/'), { limit: 4 });
    const active = await fc.getActiveCrawls();
    expect(active.crawls.map((c) => c.id)).toContain(running.id);
    const status = await fc.getCrawlStatus(running.id);
    expect(status.status).toBe('scraping');
    expect(status.next).toBeNull();
    expect(await fc.cancelCrawl(running.id)).toBe(true);
    expect((await fc.getCrawlStatus(running.id)).status).toBe('cancelled');
  }, 60_000);

  it('crawlParamsPreview, through the model of the environment', async () => {
    const preview = await fc.crawlParamsPreview(stack.page('/'), 'Only the docs, at most 5 pages');
    expect(preview).toMatchObject({ url: stack.page('/'), limit: 5 });
  });

  it('batchScrape, startBatchScrape, getBatchScrapeStatus, getBatchScrapeErrors, cancelBatchScrape', async () => {
    const urls = [stack.page(ARTICLE), stack.page('/docs/getting-started.html'), 'http://127.0.0.1:1/refused'];
    const job = await fc.batchScrape(urls, { options: { formats: ['markdown'] }, pollInterval: 1 });
    expect(job).toMatchObject({ status: 'completed', completed: 2, total: 2 });
    expect(job.data.map((d) => d.metadata?.sourceURL).sort()).toEqual(urls.slice(0, 2).sort());
    const errors = await fc.getBatchScrapeErrors(job.id);
    expect(errors.errors.map((e) => e.url)).toEqual(['http://127.0.0.1:1/refused']);

    // One line of a list that is no URL refuses it; the SdkError says how to keep the rest (before: only which line).
    const refused = await fc.startBatchScrape([stack.page(ARTICLE), 'not a url']).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SdkError);
    expect((refused as SdkError).message).toBe(
      'Invalid URL: urls[1] ("not a url"). Fix or remove it, or send ignoreInvalidURLs: true to scrape the valid URLs ' +
        'and list the others in invalidURLs.',
    );

    const started = await fc.startBatchScrape([stack.page('/slow/held-1.html')]);
    expect((await fc.getBatchScrapeStatus(started.id)).status).toBe('scraping');
    expect(await fc.cancelBatchScrape(started.id)).toBe(true);
  }, 60_000);

  it('watcher: documents then done', async () => {
    const started = await fc.startBatchScrape([stack.page(ARTICLE), stack.page('/docs/getting-started.html')]);
    const watcher = fc.watcher(started.id, { kind: 'batch', pollInterval: 1 });
    const done = new Promise<{ status: string; data: unknown[] }>((resolve) => watcher.on('done', resolve));
    await watcher.start();
    const final = await done;
    watcher.close();
    expect(final.status).toBe('completed');
    expect(final.data).toHaveLength(2);
  });

  it('parse: an uploaded file as a document', async () => {
    const html = '<html><body><main><h1>Upload</h1><p>An uploaded page, parsed by crawlkit.</p></main></body></html>';
    const doc = await fc.parse({ data: Buffer.from(html), filename: 'upload.html' });
    expect(doc.markdown).toContain('An uploaded page, parsed by crawlkit.');
  });

  it('usage, queue and concurrency', async () => {
    const credits = await fc.getCreditUsage();
    expect(credits.planCredits! - credits.remainingCredits).toBeGreaterThan(0);
    const tokens = await fc.getTokenUsage();
    expect(tokens.planTokens! - tokens.remainingTokens).toBeGreaterThan(0);
    expect((await fc.getCreditUsageHistorical()).periods[0]!.creditsUsed).toBe(
      credits.planCredits! - credits.remainingCredits,
    );
    expect((await fc.getTokenUsageHistorical(true)).periods).toHaveLength(1);
    expect(await fc.getQueueStatus()).toMatchObject({ success: true, maxConcurrency: 16 });
    expect(await fc.getConcurrency()).toMatchObject({ maxConcurrency: 16 });
  });

  it('the v1-style aliases of the v2 client', async () => {
    expect((await fc.scrapeUrl(stack.page(ARTICLE))).markdown).toContain('Sharpening a Hand Plane');
    expect((await fc.mapUrl(stack.page('/'))).links.length).toBeGreaterThan(3);
    const crawl = await fc.crawlUrl(stack.page('/'), { limit: 2, sitemap: 'skip', pollInterval: 1 });
    expect((await fc.checkCrawlStatus(crawl.id)).data).toHaveLength(2);
    expect((await fc.checkCrawlErrors(crawl.id)).errors).toEqual([]);
    const batch = await fc.batchScrapeUrls([stack.page(ARTICLE)], { pollInterval: 1 });
    expect((await fc.checkBatchScrapeStatus(batch.id)).completed).toBe(1);
    expect((await fc.checkBatchScrapeErrors(batch.id)).errors).toEqual([]);
    expect((await fc.asyncCrawlUrl(stack.page('/'), { limit: 1 })).id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fc.asyncBatchScrapeUrls([stack.page(ARTICLE)])).id).toMatch(/^[0-9a-f-]{36}$/);
  }, 60_000);
});

describe('the v1 client (firecrawl.v1), through the v1 routes', () => {
  it('scrapeUrl with extract, mapUrl as strings, crawlUrl, batchScrapeUrls, credit usage', async () => {
    const v1 = fc.v1;
    // The v1 SDK types `extract.schema` as a zod schema; a JSON Schema goes through as it is.
    const schema = { type: 'object', properties: { title: { type: 'string' } } } as never;
    const scraped = await v1.scrapeUrl(stack.page(ARTICLE), { formats: ['markdown', 'extract'], extract: { schema } });
    if (!scraped.success) throw new Error(scraped.error);
    expect(scraped.markdown).toContain('Sharpening a Hand Plane');
    expect(scraped.extract).toEqual({ title: 'Sharpening a Hand Plane' });
    const map = await v1.mapUrl(stack.page('/'), { ignoreSitemap: true });
    expect(map.success && map.links).toContain(stack.page(ARTICLE));
    const crawl = await v1.crawlUrl(stack.page('/'), { limit: 3, ignoreSitemap: true }, 1);
    expect(crawl).toMatchObject({ success: true, status: 'completed', completed: 3, total: 3 });
    const batch = await v1.batchScrapeUrls([stack.page(ARTICLE), stack.page('/docs/getting-started.html')], {}, 1);
    expect(batch).toMatchObject({ success: true, status: 'completed', completed: 2 });
    const credits = await v1.getCreditUsage();
    if (!('data' in credits)) throw new Error(credits.error);
    expect(credits.data.plan_credits - credits.data.remaining_credits).toBeGreaterThan(0);
    expect(await v1.getQueueStatus()).toMatchObject({ success: true, maxConcurrency: 16 });
  }, 90_000);

  it("v0's nested options (LangChain's older loader examples) are told where their keys went", async () => {
    const params = { crawlerOptions: { excludes: ['blog/*'] }, pageOptions: { onlyMainContent: true } } as never;
    const error = await fc.v1.crawlUrl(stack.page('/'), params, 1).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(
      "(unknown: crawlerOptions, pageOptions): v0's crawlerOptions are crawl options at the body's top level: " +
        'includes is includePaths, excludes is excludePaths',
    );
  });
});

/**
 * Valid v2 options whose answer differed from the spec until the sweep of docs/v2-sweep.md: each case is one option
 * and what the response must say for it.
 */
describe('valid options (docs/v2-sweep.md)', () => {
  describe('scrape options', () => {
    it('proxy: a copy cached by a stealth scrape serves an auto or basic scrape as basic, billed 1 credit', async () => {
      const url = stack.page('/docs/getting-started.html');
      const stealth = await fc.scrape(url, { formats: ['markdown'], proxy: 'stealth' });
      // This server has no stealth proxy: the evasions ran, and the page is basic, 1 credit (respond.test.ts bills a
      // page a stealth proxy served 5).
      expect(stealth.metadata).toMatchObject({ proxyUsed: 'basic', creditsUsed: 1 });
      expect(stealth.warning).toContain('No stealth proxy is configured');
      // The stealth fetch stored the page; the next scrapes are answered by that copy, without a proxy.
      for (const proxy of ['auto', 'basic'] as const) {
        const cached = await fc.scrape(url, { formats: ['markdown'], proxy });
        expect(cached.markdown).toBe(stealth.markdown);
        expect(cached.metadata).toMatchObject({ cacheState: 'hit', proxyUsed: 'basic', creditsUsed: 1 });
      }
    }, 60_000);
  });

  describe('actions', () => {
    it('click with all: a click that navigates ends it with a warning, and the page it opened is the result', async () => {
      // The article's links: `#content` (stays on the page), then `/` (leaves it), then more on the page it left.
      const doc = await fc.scrape(stack.page('/articles/first-post.html'), {
        formats: ['markdown'],
        actions: [{ type: 'click', selector: 'a', all: true }],
      });
      expect(doc.metadata?.url).toBe(stack.page('/'));
      expect(doc.markdown).toContain('Acme Field Notes');
      expect(doc.warning).toMatch(
        /click "a" with all: the page navigated by match \d+ of \d+, so the other \d+ matches/,
      );
    }, 60_000);

    it("a failing action's SdkError keeps the flow's evidence in details", async () => {
      const error = await fc
        .scrape(stack.page(ARTICLE), {
          formats: ['markdown'],
          actions: [{ type: 'screenshot' }, { type: 'click', selector: '#no-such-button' }],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SdkError);
      expect(error).toMatchObject({
        status: 500,
        code: 'SCRAPE_ACTION_ERROR',
        details: {
          action: { index: 1, type: 'click', selector: '#no-such-button' },
          url: stack.page(ARTICLE),
          actions: { screenshots: [expect.stringMatching(/^data:image\/png;base64,/)] },
          screenshot: expect.stringMatching(/^data:image\/png;base64,/),
        },
      });
    }, 60_000);
  });

  describe('batch scrape', () => {
    it('webhook: every payload carries error, null when nothing failed (the interface payload)', async () => {
      const receiver = await startReceiver();
      try {
        const urls = [stack.page('/articles/first-post.html'), 'http://127.0.0.1:1/refused'];
        const job = await fc.batchScrape(urls, {
          webhook: { url: receiver.url, events: ['started', 'page', 'completed'], metadata: { run: 'sweep' } },
          pollInterval: 1,
        });
        await until(() => receiver.events.some((e) => e.payload.type === 'batch_scrape.completed'));
        const payloads = receiver.events.map((e) => e.payload).filter((p) => p.id === job.id);
        const byUrl = (url: string) =>
          payloads.find((p) => p.type === 'batch_scrape.page' && p.data[0]?.metadata.sourceURL === url);
        expect(payloads.find((p) => p.type === 'batch_scrape.started')).toMatchObject({ success: true, error: null });
        expect(byUrl(urls[0]!)).toMatchObject({ success: true, error: null, metadata: { run: 'sweep' } });
        expect(byUrl(urls[1]!)).toMatchObject({ success: false, error: expect.stringContaining('refused') });
        expect(payloads.find((p) => p.type === 'batch_scrape.completed')).toMatchObject({ success: true, error: null });
      } finally {
        await receiver.close();
      }
    }, 60_000);
  });

  describe('search', () => {
    it('location and country, which only a web search provider reads, are answered with a warning', async () => {
      await fc.scrape(stack.page('/shop/plane.html'), { formats: ['markdown'] });
      const plain = await fc.search('smoothing plane', { limit: 3 });
      expect(plain.web?.map((r) => (r as { url: string }).url)).toContain(stack.page('/shop/plane.html'));
      expect((plain as { warning?: string }).warning).toBeUndefined();
      const located = await fc.search('smoothing plane', { limit: 3, location: 'Germany', country: 'DE' });
      expect(located.web).toEqual(plain.web);
      expect((located as { warning?: string }).warning).toBe(
        '`location` and `country` go to a web search provider only: the stored pages searched are not narrowed by them.',
      );
    });
  });
});

/** The 404 a method rejects with (an endpoint crawlkit does not offer, a path with no route). */
async function notOffered(call: () => Promise<unknown>): Promise<SdkError> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  expect((error as SdkError).status).toBe(404);
  return error as SdkError;
}

describe('methods of endpoints crawlkit does not offer: a 404 naming the endpoint', () => {
  const id = '0192f0a4-0000-7000-8000-000000000000';
  // The message is the server's: it names the endpoint (the research client shows only the status).
  const cases: [string, () => Promise<unknown>, string | undefined][] = [
    ['startExtract', () => fc.startExtract({ urls: ['https://a.example'], prompt: 'x' }), 'extract'],
    ['getExtractStatus', () => fc.getExtractStatus(id), 'extract'],
    ['startAgent', () => fc.startAgent({ prompt: 'x' }), 'agent'],
    ['getAgentStatus', () => fc.getAgentStatus(id), 'agent'],
    ['listAgents', () => fc.listAgents(), 'agent'],
    ['cancelAgent', () => fc.cancelAgent(id), 'agent'],
    ['browser', () => fc.browser(), 'browser sessions'],
    ['listBrowsers', () => fc.listBrowsers(), 'browser sessions'],
    ['interact', () => fc.interact(id, { prompt: 'click' }), 'scrape interaction'],
    ['stopInteraction', () => fc.stopInteraction(id), 'scrape interaction'],
    ['findTools', () => fc.findTools({}), 'Alexandria'],
    ['developerSearch', () => fc.developerSearch('x'), 'developer search'],
    ['feedback', () => fc.feedback({ endpoint: 'scrape', jobId: id, rating: 'good' } as never), 'feedback'],
    ['research.searchPapers', () => fc.research.searchPapers('x'), undefined],
  ];
  for (const [name, call, endpoint] of cases) {
    it(name, async () => {
      const error = await notOffered(call);
      if (endpoint)
        expect(error.message).toMatch(
          new RegExp(`\\(${endpoint}[^)]*\\) is a Firecrawl endpoint that crawlkit does not offer`),
        );
    });
  }
});

describe("a base URL in another client's form", () => {
  it("an apiUrl ending in /v2 (n8n's form) is told the version is in the path twice", async () => {
    const slipped = new Firecrawl({ apiKey: stack.key, apiUrl: `${stack.url}/v2` });
    const error = await notOffered(() => slipped.scrape(stack.page(ARTICLE)));
    expect(error.message).toContain(
      'No route for POST /v2/v2/scrape: the API version is in the path twice, so this is POST /v2/scrape.',
    );
    expect(error.message).toContain("give it the server's address without /v2");
  });
});
