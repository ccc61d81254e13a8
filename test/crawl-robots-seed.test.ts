/**
 * robots.txt and a crawl's seed: the seed is queued before robots.txt is read, and every other URL is judged as it is
 * found. A seed that robots.txt disallows is not fetched: it is listed in `robotsBlocked`, and the crawl ends with no
 * page and the robots.txt warning (as a disallowed link is), unless `ignoreRobotsTxt` is set.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: Server;
let base: string;
let ck: Crawlkit;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /private\n');
    } else if (path.startsWith('/private')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html><body><main><h1>${path}</h1><a href="/private/more">More</a></main></body></html>`);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await new Promise((resolve) => server.close(resolve));
});

async function crawl(body: { ignoreRobotsTxt?: boolean }) {
  requests.length = 0;
  const started = await ck.crawl({
    url: `${base}/private/`,
    sitemap: 'skip',
    scrapeOptions: { maxAge: 0 },
    ...body,
  });
  if (!started.success) throw new Error(`crawl refused: ${started.error}`);
  const status = await ck.waitForJob(started.id);
  if (!status.success) throw new Error(`crawl failed: ${status.error}`);
  const errors = await ck.getCrawlErrors(started.id);
  if (!('robotsBlocked' in errors)) throw new Error(`errors refused: ${errors.error}`);
  return { status, errors, pages: requests.filter((path) => path !== '/robots.txt') };
}

describe('a crawl whose seed robots.txt disallows', () => {
  it('does not fetch it, lists it as robots-blocked and warns', async () => {
    const { status, errors, pages } = await crawl({});
    expect(pages).toEqual([]);
    expect(status).toMatchObject({ status: 'completed', total: 0, completed: 0, creditsUsed: 0, data: [] });
    expect(status.warning).toMatch(/robots\.txt file prevented this/);
    expect(errors.robotsBlocked).toEqual([`${base}/private/`]);
    expect(errors.errors).toEqual([]);
  });

  it('crawls it with ignoreRobotsTxt', async () => {
    const { status, errors, pages } = await crawl({ ignoreRobotsTxt: true });
    expect(pages.sort()).toEqual(['/private/', '/private/more']);
    expect(status.data).toHaveLength(2);
    expect(errors.robotsBlocked).toEqual([]);
  });
});
