/**
 * A map whose sitemap cannot be read (an error status, a dropped connection) says which one and why in its
 * `warning`: with `sitemap: 'only'` it answered an empty list and nothing else before.
 */
import { Crawlkit, type MapResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let ck: Crawlkit;
let sitemap: 'down' | 'dropped' = 'down';

beforeAll(async () => {
  site = await startRouteSite({
    '/sitemap.xml': (_req, res) => {
      if (sitemap === 'dropped') {
        res.socket?.destroy();
        return;
      }
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('Service unavailable');
    },
    '/': (_req, res) => sendPage(res, 'Home', '<a href="/a">A</a>'),
    '/a': (_req, res) => sendPage(res, 'A', '<p>Page A.</p>'),
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function map(only: boolean): Promise<MapResponse> {
  const response = await ck.map({ url: `${site.url}/`, ...(only ? { sitemap: 'only' as const } : {}) });
  if (!response.success) throw new Error(response.error);
  return response;
}

describe('a map whose sitemap cannot be read', () => {
  it('says which sitemap answered 503, with sitemap only and with the pages', async () => {
    sitemap = 'down';
    const only = await map(true);
    expect(only.links).toEqual([]);
    expect(only.warning).toBe(`The sitemap ${site.url}/sitemap.xml could not be read (answered 503).`);
    const withPages = await map(false);
    expect(withPages.links.map((l) => l.url).sort()).toEqual([site.url, `${site.url}/a`]);
    expect(withPages.warning).toBe(only.warning);
  });

  it('names a dropped connection as the reason', async () => {
    sitemap = 'dropped';
    const only = await map(true);
    expect(only.warning).toMatch(/^The sitemap .+ could not be read \(SCRAPE_CONNECTION_ERROR: Connection to .+\)\.$/);
  });
});
