// Crawls of the crawl fixture site (fixtures/crawl-site) through a test file's engine, and what they are checked by.
import type { CrawlErrorsResponse, CrawlRequestInput, Document, ErrorResponse, JobStatusResponse } from 'crawlkit';
import { expect } from 'vitest';

import type { CrawlSiteServer } from '../../fixtures/crawl-site/harness.ts';
import type { FixtureEngine } from './fixture-engine.ts';

export function ok<T extends { success: boolean }>(value: T | ErrorResponse): Exclude<T, ErrorResponse> {
  if (!value.success) throw new Error(`unexpected error: ${(value as ErrorResponse).error}`);
  return value as Exclude<T, ErrorResponse>;
}

export interface CrawlRun {
  id: string;
  status: JobStatusResponse;
  /** Labels of the stored pages' final URLs, sorted. */
  pages: string[];
  errors: CrawlErrorsResponse;
}

/**
 * A function that starts a crawl on the fixture site (`url` is a path on `site.test` unless absolute) and waits
 * for its end.
 */
export function crawlRunner(env: FixtureEngine<CrawlSiteServer>) {
  return async (body: Omit<CrawlRequestInput, 'url'> & { url: string }): Promise<CrawlRun> => {
    const url = body.url.startsWith('http') ? body.url : env.server.url(body.url);
    const started = ok(await env.ck.crawl({ ...body, url, scrapeOptions: { maxAge: 0, ...body.scrapeOptions } }));
    const status = ok(await env.ck.waitForJob(started.id));
    const errors = await env.ck.getCrawlErrors(started.id);
    if ('success' in errors) throw new Error(`errors call failed: ${errors.error}`);
    const pages = status.data.map((d: Document) => env.server.label(d.metadata.url ?? d.metadata.sourceURL)).sort();
    return { id: started.id, status, pages, errors };
  };
}

/**
 * Asserts that the crawl of `/docs` sent its `count` page requests to site.test `delayMs` apart, from the server's
 * arrival times, in a way load cannot break: a request may be handled late, which shortens its gap to the next one,
 * but never before it was sent. The pages after `/docs` are found in its response, so each is sent after `/docs`
 * arrived, and they are sent `delayMs` apart: the last arrives at least `(count - 2) * delayMs` after `/docs` (3 ms
 * for the clocks' rounding). Without the spacing it arrives within the time two extractions take.
 */
export function expectSpaced(hits: { host: string; path: string; at: number }[], count: number, delayMs: number) {
  const pages = hits.filter((h) => h.host === 'site.test' && !/robots|sitemap/.test(h.path));
  expect(pages).toHaveLength(count);
  expect(pages.at(-1)!.at - pages[0]!.at).toBeGreaterThanOrEqual((count - 2) * delayMs - 3);
}
