/**
 * Three teams on one `crawlkit serve`, each with its own API key, driven by the official JS SDK
 * (`@mendable/firecrawl-js`): a real server over a real engine (SQLite store) and a site on 127.0.0.1 that records
 * the order of the requests it gets.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEYS = { a: 'fc-team-a-0123456789', b: 'fc-team-b-0123456789', c: 'fc-team-c-0123456789' };

let stack: ServeStack;
let site: Server;
let siteUrl = '';
/** Paths in the order the site was asked for them. */
const requested: string[] = [];
const team = (key: string) => new Firecrawl({ apiKey: key, apiUrl: stack.server.url });

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    // A crawl's root links to its pages; every other page is a leaf. Batch pages take a moment, as real pages do.
    const links = path.endsWith('/crawl/')
      ? Array.from({ length: 6 }, (_, i) => `<a href="${path}${i}">page ${i}</a>`).join(' ')
      : '';
    setTimeout(
      () => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<html><head><title>${path}</title></head><body><main><p>Page ${path}. ${links}</p></main></body></html>`,
        );
      },
      path.startsWith('/a/') ? 100 : 0,
    );
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // One scrape slot: the order the site sees is the order the engine served its line in.
  stack = await startServeStack({ crawlkit: { concurrency: 1 }, server: { apiKeys: Object.values(KEYS) } });
});

afterAll(async () => {
  await stack?.close();
  site?.closeAllConnections();
  site?.close();
});

describe('several teams on one serve', () => {
  it("serve each team's jobs in turn: B's small crawl runs while A's eight batches of 100 pages wait their turns", async () => {
    const a = team(KEYS.a);
    const b = team(KEYS.b);
    const batches = [];
    for (let j = 0; j < 8; j++) {
      const urls = Array.from({ length: 100 }, (_, i) => `${siteUrl}/a/${j}/${i}`);
      batches.push(await a.startBatchScrape(urls, { options: { formats: ['markdown'] } }));
    }
    const crawl = await b.crawl(`${siteUrl}/b/crawl/`, { limit: 10, pollInterval: 0.05 });
    expect(crawl.status).toBe('completed');
    expect(crawl.data).toHaveLength(7);
    // B's crawl finished while A's batches still run.
    for (const batch of batches) expect((await a.getBatchScrapeStatus(batch.id)).status).toBe('scraping');

    const pages = requested.filter((path) => /^\/b\/crawl\/\d*$/.test(path));
    const during = requested.slice(requested.indexOf(pages[0]!), requested.lastIndexOf(pages.at(-1)!) + 1);
    const ofA = during.filter((path) => path.startsWith('/a/')).length;
    // Team A's pages and B's take turns: one or two of A's per page of B, while B's crawl settles a page and queues
    // the next (before: one per batch of A, eight).
    expect(pages).toHaveLength(7);
    expect(ofA).toBeLessThan(3 * pages.length);
    for (const batch of batches) await a.cancelBatchScrape(batch.id);
  });
});
