/**
 * Map reads the links of the pages it follows in the extraction pool's worker threads, as scrape extracts pages
 * there: a page of thousands of links is parsed off the main thread.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { threadId } from 'node:worker_threads';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { Crawlkit } from '../crawlkit.js';
import type { CallStart } from '../extraction/pool.js';

const ITEMS = 6_000;

/** A store's catalogue index: navigation, a cookie bar, thousands of product links, a footer. */
const CATALOGUE = `<!doctype html><html><head><title>All products - Example Store</title>
<meta name="description" content="Every product of the store, A to Z"></head><body>
<div class="cookie-banner">We use cookies to improve your experience. <button>Accept all</button> <a href="/privacy">Privacy</a></div>
<header><nav><a href="/">Home</a> <a href="/catalogue">Catalogue</a> <a href="/offers">Offers</a> <a href="/help">Help</a></nav></header>
<main><h1>All products</h1><ul class="product-list">${Array.from(
  { length: ITEMS },
  (_, i) =>
    `<li class="product"><a href="/catalogue/item-${i}?ref=index#top">Product ${i}</a> <span class="price">€${i % 90}.99</span></li>`,
).join('\n')}</ul></main>
<footer><a href="/terms">Terms</a> <a href="https://elsewhere.example/partner">Partner</a> © Example Store</footer>
</body></html>`;

let server: FixtureServer;
let ck: Crawlkit;

beforeAll(async () => {
  server = await startFixtureServer({
    routes: { '/catalogue': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(CATALOGUE) },
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http', workers: { size: 1, maxMemoryMb: 256 } });
});

afterAll(async () => {
  await ck?.close();
  await server?.close();
});

describe('map in worker threads', () => {
  it("reads a page's thousands of links in a worker thread, not on the main thread", async () => {
    const starts: CallStart[] = [];
    const listener = (message: unknown) => void starts.push(message as CallStart);
    subscribe('crawlkit:extraction:call-start', listener);
    let response: Awaited<ReturnType<Crawlkit['map']>>;
    try {
      response = await ck.map({ url: `${server.url}/catalogue`, sitemap: 'skip', limit: ITEMS });
    } finally {
      unsubscribe('crawlkit:extraction:call-start', listener);
    }
    if (!response.success) throw new Error(JSON.stringify(response));
    const reads = starts.filter((s) => s.kind === 'pageLinks');
    expect(reads.map((s) => s.url)).toEqual([`${server.url}/catalogue`]);
    expect(reads[0]!.threadId).not.toBe(threadId);
    expect(response.links).toHaveLength(ITEMS);
    expect(response.links[0]).toEqual({
      url: `${server.url}/catalogue`,
      title: 'All products - Example Store',
      description: 'Every product of the store, A to Z',
    });
    const urls = new Set(response.links.map((l) => l.url));
    expect(urls.has(`${server.url}/catalogue/item-${ITEMS - 2}`)).toBe(true);
    expect([...urls].some((u) => u.includes('elsewhere.example'))).toBe(false);
  });
});
