/**
 * A site that drops connections now and then: a page whose connection is cut mid-body is fetched again by its crawl
 * or batch (the 429/503 back-off, the same count of 3 retries) and ends stored once, not failed; a connection nothing
 * takes (refused) is not a drop and fails at once.
 */
import { Crawlkit, type CrawlErrorsResponse } from 'crawlkit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { startReceiver } from './helpers-batch.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let refusedUrl: string;
let ck: Crawlkit;
const requests = new Map<string, number>();

/** Answers 429 (`Retry-After: 0`) three times, then resets the connection: a page that fails after 4 attempts. */
function worn(path: string, req: IncomingMessage, res: ServerResponse): void {
  const seen = (requests.get(path) ?? 0) + 1;
  requests.set(path, seen);
  if (seen > 3) {
    req.socket.resetAndDestroy();
    return;
  }
  res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0', connection: 'close' });
  res.end('Too many requests.');
}

/** Serves the page, except its first request, which is cut after part of its body. */
function cutOnce(path: string, res: ServerResponse, body: string): void {
  const seen = (requests.get(path) ?? 0) + 1;
  requests.set(path, seen);
  if (seen > 1) return sendPage(res, path, body);
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': '5000' });
  res.write('<!doctype html><html><body><p>The first part of');
  setTimeout(() => res.socket?.destroy(), 20);
}

beforeAll(async () => {
  site = await startRouteSite({
    '/': (_req, res) => sendPage(res, 'Home', '<a href="/a">A</a> <a href="/b">B</a>'),
    '/a': (req, res) => cutOnce(req.url!, res, '<p>Page A.</p>'),
    '/b': (req, res) => cutOnce(req.url!, res, '<p>Page B.</p>'),
    '/one': (req, res) => cutOnce(req.url!, res, '<p>One.</p>'),
    '/worn': (req, res) => worn(req.url!, req, res),
  });
  const closed = await startFixtureServer();
  refusedUrl = `${closed.url}/`;
  await closed.close();
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

describe('a site that drops connections', () => {
  it('a crawl fetches each cut page again and stores every page once', async () => {
    const started = await ck.crawl({ url: `${site.url}/`, sitemap: 'skip' });
    if (!started.success) throw new Error(started.error);
    const done = await ck.waitForJob(started.id);
    if (!done.success) throw new Error(done.error);
    expect(done.status).toBe('completed');
    expect(done.data.map((d) => d.metadata.sourceURL).sort()).toEqual(['/', '/a', '/b'].map((p) => site.url + p));
    expect(done.data.every((d) => d.metadata.statusCode === 200)).toBe(true);
    expect([done.total, done.completed, done.creditsUsed]).toEqual([3, 3, 3]);
    expect(((await ck.getCrawlErrors(started.id)) as CrawlErrorsResponse).errors).toEqual([]);
    expect([requests.get('/a'), requests.get('/b')]).toEqual([2, 2]);
  });

  it('a batch fetches a cut page again; a refused connection fails at once as SCRAPE_CONNECTION_ERROR', async () => {
    const started = await ck.batchScrape({ urls: [`${site.url}/one`, refusedUrl] });
    if (!started.success) throw new Error(started.error);
    const done = await ck.waitForJob(started.id);
    if (!done.success) throw new Error(done.error);
    expect(done.data.map((d) => [d.metadata.sourceURL, d.metadata.statusCode])).toEqual([[`${site.url}/one`, 200]]);
    expect([done.total, done.completed]).toEqual([1, 1]);
    expect(requests.get('/one')).toBe(2);
    const { errors } = (await ck.getBatchScrapeErrors(started.id)) as CrawlErrorsResponse;
    expect(errors).toEqual([expect.objectContaining({ url: refusedUrl, code: 'SCRAPE_CONNECTION_ERROR' })]);
    expect(errors[0]!.error).toMatch(/refused/);
  });

  it('a page that fails after retries says how many attempts over how long, in every place its error is told', async () => {
    const receiver = await startReceiver();
    const told: string[] = [];
    const listen = ({ error }: { error: { error: string } }) => told.push(error.error);
    ck.on('error', listen);
    try {
      const started = await ck.batchScrape({
        urls: [`${site.url}/worn`],
        webhook: { url: receiver.url, events: ['page'] },
      });
      if (!started.success) throw new Error(started.error);
      await ck.waitForJob(started.id);
      const { errors } = (await ck.getBatchScrapeErrors(started.id)) as CrawlErrorsResponse;
      expect(requests.get('/worn')).toBe(4);
      // the last attempt's code, stable; the message says it was retried
      expect(errors).toEqual([expect.objectContaining({ code: 'SCRAPE_CONNECTION_ERROR' })]);
      const message = /^Connection to 127\.0\.0\.1:\d+ reset \(.+\), after 4 attempts over \d+\.\d s\.$/;
      expect(errors[0]!.error).toMatch(message);
      expect(told).toEqual([errors[0]!.error]);
      await vi.waitUntil(() => receiver.events.length > 0);
      expect(receiver.events[0]!.payload).toMatchObject({
        type: 'batch_scrape.page',
        success: false,
        error: errors[0]!.error,
      });
    } finally {
      ck.off('error', listen);
      await receiver.close();
    }
  });
});
