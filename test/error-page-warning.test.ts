/**
 * A page that answered an HTTP error is kept as a document (`success: true`, `metadata.statusCode`, as v2), and its
 * `warning` says the status first, once: through the function API, `crawlkit serve` with the official JS SDK, a
 * batch, and change tracking of a 500. A real server over a real engine (SQLite store) and the fixture site.
 */
import { PAGE_WARNINGS } from '@crawlkit/extractor/page-warnings';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok } from './helpers/crawl-site-run.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-0123456789abcdef0123456789abcdef';

let stack: ServeStack;
let fc: Firecrawl;

beforeAll(async () => {
  stack = await startServeStack({ server: { apiKeys: [KEY] } });
  fc = new Firecrawl({ apiKey: KEY, apiUrl: stack.server.url });
});

afterAll(async () => {
  await stack?.close();
});

const NOT_FOUND = "The page answered 404 Not Found; the document is the server's error page.";
const SERVER_ERROR = "The page answered 500 Internal Server Error; the document is the server's error page.";
const times = (text: string | undefined, part: string) => (text ?? '').split(part).length - 1;

describe("an error answer's document", () => {
  it('says its status first through the function API, and stays a successful document', async () => {
    const answer = ok(await stack.ck.scrape({ url: stack.page('/no-such-page'), formats: ['markdown'], maxAge: 0 }));
    expect(answer.data.metadata.statusCode).toBe(404);
    expect(answer.data.markdown).toContain('Page not found');
    expect(answer.data.warning?.startsWith(NOT_FOUND)).toBe(true);
    expect(times(answer.data.warning, 'The page answered')).toBe(1);
    const fine = ok(await stack.ck.scrape({ url: stack.page('/articles/first-post.html'), maxAge: 0 }));
    expect(fine.data.warning).toBeUndefined();
  });

  it('says it through crawlkit serve to firecrawl-js, and not also that a 500 page has no main content', async () => {
    const doc = await fc.scrape(stack.page('/http/status/500'), { formats: ['markdown'], maxAge: 0 });
    expect(doc.metadata?.statusCode).toBe(500);
    expect(doc.warning).toBe(SERVER_ERROR);
  });

  it('through the function API, leaves "No main content was found" off an error page (its status says it)', async () => {
    const answer = ok(await stack.ck.scrape({ url: stack.page('/http/status/500'), formats: ['markdown'], maxAge: 0 }));
    expect(answer.data.metadata.statusCode).toBe(500);
    expect(answer.data.warning).toBe(SERVER_ERROR);
    const whole = ok(
      await stack.ck.scrape({
        url: stack.page('/http/status/500'),
        formats: ['markdown'],
        maxAge: 0,
        onlyMainContent: false,
      }),
    );
    expect(whole.data.warning).toBe(SERVER_ERROR);
  });

  it('keeps the coded "No main content" warning, in its very words, on a 200 page with the same body', async () => {
    const answer = ok(await stack.ck.scrape({ url: stack.page('/http/status/200'), formats: ['markdown'], maxAge: 0 }));
    expect(answer.data.metadata.statusCode).toBe(200);
    expect(answer.data.warning).toBe(PAGE_WARNINGS.NO_MAIN_CONTENT);
  });

  it('says it once per page of a batch, and the batch status does not repeat it', async () => {
    const urls = ['/no-such-page', '/http/status/410', '/articles/first-post.html'].map((p) => stack.page(p));
    const job = await fc.batchScrape(urls, { options: { formats: ['markdown'], maxAge: 0 }, pollInterval: 0.2 });
    expect(job.status).toBe('completed');
    const byStatus = new Map(job.data.map((d) => [d.metadata?.statusCode, d.warning]));
    expect(byStatus.get(404)?.startsWith(NOT_FOUND)).toBe(true);
    expect(byStatus.get(410)).toMatch(/^The page answered 410 Gone; the document is the server's error page\./);
    expect(byStatus.get(200)).toBeUndefined();
    for (const warning of byStatus.values()) expect(times(warning, 'The page answered')).toBeLessThanOrEqual(1);
    expect((job as { warning?: string }).warning ?? '').not.toContain('The page answered');
  });

  it('with change tracking of a 500, names the status once and says the page was not compared', async () => {
    const answer = ok(
      await stack.ck.scrape({
        url: stack.page('/http/status/500'),
        formats: ['markdown', { type: 'changeTracking', tag: 'error-page' }],
        maxAge: 0,
      }),
    );
    const { warning } = answer.data;
    expect(warning).toMatch(/^The page answered 500 Internal Server Error; the document is the server's error page\./);
    expect(warning).toContain('An error answer says nothing of the page: it was not compared, nor kept');
    expect(times(warning, '500')).toBe(1);
  });
});
