/**
 * `crawlkit serve` driven by the official JS SDK (`@mendable/firecrawl-js`), unchanged: a real server on an
 * ephemeral port over a real engine (SQLite store, Chromium for the browser formats, the fixture model for json,
 * summary and crawl prompts) and fixture sites on 127.0.0.1.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startLlmServer, type LlmServer } from '../fixtures/llm-server.ts';
import { serveGeneratedSite } from '../bench/lib/generated-site.ts';
import { ISOLATED_ARGS } from './helpers/scrape.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-0123456789abcdef0123456789abcdef';

let stack: ServeStack;
let llm: LlmServer;
let generated: { url: string; close(): Promise<void> };
let fc: Firecrawl;

beforeAll(async () => {
  llm = await startLlmServer();
  generated = await serveGeneratedSite({ pages: 130, linksPerPage: 4 });
  const model = createOpenAICompatible({ name: 'local', baseURL: llm.url, supportsStructuredOutputs: true });
  stack = await startServeStack({
    crawlkit: {
      engine: 'auto',
      browser: { args: ISOLATED_ARGS },
      timeoutMs: 30_000,
      // The budget runs from the start of the scrape, fetch included: Chromium on a busy machine must not eat it.
      extractionBudgetMs: 60_000,
      llm: model.chatModel('m'),
    },
    server: { apiKeys: [KEY] },
  });
  fc = new Firecrawl({ apiKey: KEY, apiUrl: stack.server.url });
});

afterAll(async () => {
  await stack?.close();
  await generated?.close();
  await llm?.close();
});

/** The SdkError a call rejects with. */
async function sdkError(call: Promise<unknown>): Promise<SdkError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

describe('the official JS SDK against crawlkit serve', () => {
  it('scrapes with every format in one request', async () => {
    const doc = await fc.scrape(stack.page('/articles/first-post.html'), {
      formats: [
        'markdown',
        'html',
        'rawHtml',
        'links',
        'images',
        'summary',
        'branding',
        { type: 'json', prompt: 'The article', schema: { type: 'object', properties: { title: { type: 'string' } } } },
        { type: 'changeTracking', modes: ['git-diff'], tag: 'sdk' },
        { type: 'screenshot', fullPage: false },
        { type: 'attributes', selectors: [{ selector: 'img[srcset]', attribute: 'alt' }] },
      ],
      // Chromium, a model and branding on a shared machine: a generous page deadline.
      timeout: 90_000,
    });
    expect(doc.markdown).toContain('# Sharpening a Hand Plane');
    expect(doc.markdown).not.toContain('cookie policy');
    expect(doc.html).toContain('<h1>Sharpening a Hand Plane</h1>');
    expect(doc.rawHtml).toContain('<title>Sharpening a Hand Plane | Acme Field Notes</title>');
    expect(doc.links).toContain(stack.page('/docs/getting-started.html'));
    expect(doc.images).toContainEqual(expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/img\/plane/));
    expect(typeof doc.summary).toBe('string');
    expect((doc.json as { title?: unknown }).title).toEqual(expect.any(String));
    expect(doc.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
    expect(doc.screenshot).toMatch(/^data:image\/png;base64,.{100}/);
    expect(doc.branding?.colorScheme).toMatch(/^(light|dark)$/);
    expect(doc.attributes).toEqual([
      { selector: 'img[srcset]', attribute: 'alt', values: ['A freshly sharpened plane iron'] },
    ]);
    expect(doc.metadata).toMatchObject({
      sourceURL: stack.page('/articles/first-post.html'),
      statusCode: 200,
      title: 'Sharpening a Hand Plane | Acme Field Notes',
      creditsUsed: 5,
    });
  });

  it('runs the crawl waiter past 100 pages, following next to the server', async () => {
    const job = await fc.crawl(generated.url, { limit: 120, pollInterval: 1, timeout: 120 });
    expect(job.status).toBe('completed');
    expect(job).toMatchObject({ total: 120, completed: 120, next: null });
    expect(job.data).toHaveLength(120);
    expect(new Set(job.data.map((d) => d.metadata?.sourceURL)).size).toBe(120);
    // The first page of the status holds 100 documents; its next address is the server's own.
    const first = await fc.getCrawlStatus(job.id, { autoPaginate: false });
    expect(first.data).toHaveLength(100);
    expect(first.next).toBe(`${stack.server.url}/v2/crawl/${job.id}?skip=100&limit=100`);
  });

  it('starts, lists, pages, cancels and reads the errors of a crawl', async () => {
    // delay: one page a second, so the crawl is still running while we look (maxAge 0: the crawl above cached these
    // pages, and a page the cache answers sends no request, so it takes no host slot).
    const started = await fc.startCrawl(generated.url, { limit: 50, delay: 1, scrapeOptions: { maxAge: 0 } });
    expect(started.url).toBe(`${stack.server.url}/v2/crawl/${started.id}`);
    const active = await fc.getActiveCrawls();
    expect(active.success).toBe(true);
    expect(active.crawls.find((c) => c.id === started.id)).toMatchObject({
      url: generated.url,
      teamId: expect.any(String),
    });
    const running = await fc.getCrawlStatus(started.id, { autoPaginate: false });
    expect(running.status).toBe('scraping');
    // No `next` to an empty page while the job runs (issue 36: the SDK looped on it); one page holds what is stored.
    expect(running.next).toBeNull();
    expect(await fc.cancelCrawl(started.id)).toBe(true);
    expect((await fc.getCrawlStatus(started.id)).status).toBe('cancelled');
    expect((await fc.getActiveCrawls()).crawls.map((c) => c.id)).not.toContain(started.id);

    const dead = await fc.crawl('http://127.0.0.1:1/', { limit: 1, pollInterval: 1, timeout: 60 });
    // No document, so 0 of 0 as upstream counts; a first request that failed is no site without pages: failed, the
    // seed in the errors.
    expect(dead).toMatchObject({ status: 'failed', completed: 0, total: 0, data: [] });

    const errors = await fc.getCrawlErrors(dead.id);
    expect(errors.errors).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:1/', code: 'SCRAPE_CONNECTION_ERROR' }),
    ]);
    expect(errors.robotsBlocked).toEqual([]);
    // Nor can a failed one: 409, and it stays failed.
    expect(await sdkError(fc.cancelCrawl(dead.id))).toMatchObject({
      status: 409,
      code: 'JOB_ALREADY_COMPLETED',
      message: 'Crawl has already failed',
    });
    expect((await fc.getCrawlStatus(dead.id)).status).toBe('failed');
    // A finished crawl cannot be cancelled: 409 with the v2 message.
    const finished = await fc.crawl(generated.url, { limit: 1, pollInterval: 1, timeout: 60 });
    expect(finished.status).toBe('completed');
    const conflict = await sdkError(fc.cancelCrawl(finished.id));
    expect(conflict).toMatchObject({
      status: 409,
      code: 'JOB_ALREADY_COMPLETED',
      message: 'Crawl is already completed',
    });
  });

  it('previews crawl parameters from a prompt (the SDK adds origin to the body)', async () => {
    const data = await fc.crawlParamsPreview(stack.page('/'), 'Only the docs pages');
    expect(data.url).toBe(stack.page('/'));
    expect(data.includePaths).toEqual(expect.arrayContaining([expect.stringContaining('docs')]));
    const body = llm.requests.at(-1)?.body;
    expect(JSON.stringify(body?.messages)).toContain('Only the docs pages');
  });

  it('runs the batch waiter, and starts, reads, cancels a batch with invalid URLs', async () => {
    const urls = ['/articles/first-post.html', '/docs/getting-started.html', '/forum/thread.html'].map((p) =>
      stack.page(p),
    );
    const batch = await fc.batchScrape(urls, { options: { formats: ['markdown'] }, pollInterval: 1, timeout: 60 });
    expect(batch).toMatchObject({ status: 'completed', total: 3, completed: 3, next: null });
    expect(batch.data.map((d) => d.metadata?.sourceURL).sort()).toEqual([...urls].sort());

    const slow = Array.from({ length: 6 }, (_, i) => stack.page(`/slow/${i}?ms=5000`));
    const started = await fc.startBatchScrape([...slow, 'not a url', 'http://127.0.0.1:1/down'], {
      ignoreInvalidURLs: true,
      maxConcurrency: 1,
    });
    expect(started.invalidURLs).toEqual(['not a url']);
    expect(started.url).toBe(`${stack.server.url}/v2/batch/scrape/${started.id}`);
    // While a job runs its status always has a next address (reference §13.6): the SDK's auto-pagination would
    // follow it until the job ends.
    const status = await fc.getBatchScrapeStatus(started.id, { autoPaginate: false });
    expect(status).toMatchObject({ id: started.id, status: 'scraping', total: 7 });
    expect(await fc.cancelBatchScrape(started.id)).toBe(true);
    expect((await fc.getBatchScrapeStatus(started.id)).status).toBe('cancelled');
    expect(await fc.getBatchScrapeErrors(started.id)).toEqual({ errors: [], robotsBlocked: [] });

    const failing = await fc.batchScrape(['http://127.0.0.1:1/down'], { pollInterval: 1, timeout: 60 });
    const errors = await fc.getBatchScrapeErrors(failing.id);
    expect(errors.errors).toEqual([expect.objectContaining({ code: 'SCRAPE_CONNECTION_ERROR' })]);
  });

  it('refuses a reused idempotency key with 409', async () => {
    const key = `sdk-${Date.now()}`;
    const first = await fc.startBatchScrape([stack.page('/listing.html')], { idempotencyKey: key });
    const again = await sdkError(fc.startBatchScrape([stack.page('/listing.html')], { idempotencyKey: key }));
    expect(again).toMatchObject({
      status: 409,
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: 'Idempotency key already used',
    });
    expect((await fc.getBatchScrapeStatus(first.id)).id).toBe(first.id);
  });

  it('watches a crawl and a batch over the WebSocket', async () => {
    for (const kind of ['crawl', 'batch'] as const) {
      const started =
        kind === 'crawl'
          ? await fc.startCrawl(generated.url, { limit: 8 })
          : await fc.startBatchScrape(
              Array.from({ length: 8 }, (_, i) => `${generated.url}/p/${i + 1}`),
              { options: { formats: ['markdown'] } },
            );
      // A poll every 10 minutes: only the socket can end this in time.
      const watcher = fc.watcher(started.id, { kind, pollInterval: 600, timeout: 60 });
      const documents: { metadata?: { sourceURL?: string } }[] = [];
      const snapshots: string[] = [];
      let done: { status?: string } | undefined;
      watcher.on('document', (doc: { metadata?: { sourceURL?: string } }) => documents.push(doc));
      watcher.on('snapshot', (snap: { status: string }) => snapshots.push(snap.status));
      watcher.on('done', (payload: { status?: string }) => (done ??= payload));
      await watcher.start();
      expect(done?.status).toBe('completed');
      expect(new Set(documents.map((d) => d.metadata?.sourceURL)).size).toBe(8);
      // One snapshot, the catch-up: the end came over the socket, not from the polling the watcher falls back to.
      expect(snapshots).toHaveLength(1);
      expect(snapshots[0]).toMatch(/^(scraping|completed)$/);
      const path = kind === 'crawl' ? '/v2/crawl' : '/v2/batch/scrape';
      expect(stack.log).toContain(`debug websocket ${path}/${started.id} opened`);
    }
  });

  it('maps a site and reports credit usage', async () => {
    const map = await fc.map(stack.page('/'), { limit: 50 });
    expect(map.links.map((l) => l.url)).toEqual(expect.arrayContaining([stack.page('/articles/first-post.html')]));
    const usage = await fc.getCreditUsage();
    expect(usage.remainingCredits).toBeGreaterThan(0);
    expect(usage.billingPeriodStart).toBeNull();
  });

  it('surfaces v2 errors as SdkError with status, code and details', async () => {
    const error = await sdkError(fc.scrape(stack.page('/'), { waitFor: 8000, timeout: 15_000 }));
    expect(error).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'waitFor must not exceed half of timeout',
    });
    // A value out of range: the message names the field and the rule, where it was upstream's bare "Bad Request".
    const range = await sdkError(fc.crawl(stack.page('/'), { limit: -5 }));
    expect(range).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'Bad Request: limit: Too small: expected number to be >0',
    });
    const missing = await sdkError(fc.getCrawlStatus('0191f0a4-0000-7000-8000-000000000000'));
    expect(missing).toMatchObject({ status: 404, code: 'JOB_NOT_FOUND', message: 'Job not found' });
  });
});
