/**
 * A browser load whose timeout runs out while every browser page (`browser.maxConcurrentPages`) is busy with other
 * requests, as the pages of a batch larger than the slots wait their turn within their own timeouts: its
 * `SCRAPE_TIMEOUT` says so and what to change, not that the browser was starting.
 */
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Fetcher } from '../index.js';
import { testBrowser } from './__fixtures__/browser-harness.js';

let server: Server;
let base: string;
let fetcher: Fetcher;
/** Responses of `/held`, answered when the test lets them go. */
const held: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/wall') {
      // A site that refuses a browser saying it is headless: the stealth retry of `proxy: 'auto'` gets in.
      const headless = (req.headers['user-agent'] ?? '').includes('HeadlessChrome');
      res.writeHead(headless ? 403 : 200, { 'content-type': 'text/html' });
      res.end(headless ? '<h1>Denied</h1>' : '<h1>Welcome</h1><p>The page behind the wall.</p>');
      return;
    }
    if (req.url === '/held') {
      held.push(res);
      server.emit('held');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Next</h1><p>The page that waited its turn.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fetcher = new Fetcher({ browser: { ...(await testBrowser()), maxConcurrentPages: 1 } });
});

afterAll(async () => {
  for (const res of held.splice(0)) res.end();
  await fetcher?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe('browser page slots', () => {
  it('says a load ran out of time waiting for a free browser page, and what to change', async () => {
    const heldRequest = once(server, 'held');
    const first = fetcher.fetch({ url: `${base}/held`, engine: 'browser', timeoutMs: 60_000 });
    first.catch(() => undefined);
    await heldRequest; // the only page slot is taken
    const error = await fetcher
      .fetch({ url: `${base}/next`, engine: 'browser', timeoutMs: 1_500 })
      .catch((e: unknown) => e);
    // Before: '… before the page's request could be sent: the browser and its page were not ready yet (a busy machine,
    // or a browser starting). Raise timeout.'
    expect(error).toMatchObject({
      code: 'SCRAPE_TIMEOUT',
      message:
        `Loading ${base}/next in the browser took longer than the 1500 ms timeout allows waiting for a browser ` +
        'page: the one browser page (browser.maxConcurrentPages) was busy with other pages until then. Scrape fewer ' +
        "pages at once (concurrency, a batch's or crawl's maxConcurrency), raise browser.maxConcurrentPages, or " +
        'raise timeout.',
    });
    for (const res of held.splice(0)) res.end('<p>Held page.</p>');
    await first;
  }, 30_000);

  it('gives a stealth retry the time its first attempt waited for a browser page, when the caller keeps that clock', async () => {
    const heldRequest = once(server, 'held');
    const first = fetcher.fetch({ url: `${base}/held`, engine: 'browser', timeoutMs: 60_000 });
    first.catch(() => undefined);
    await heldRequest; // the only page slot is taken
    let waiting!: () => void;
    const inLine = new Promise<void>((resolve) => (waiting = resolve));
    const walled = fetcher.fetch({
      url: `${base}/wall`,
      engine: 'browser',
      // Both attempts' loads fit in it under load (CI pair: the basic one took 1.9 s of a 3 s timeout).
      timeoutMs: 6_000,
      browserSlot: { waiting: () => waiting(), acquired: () => undefined },
    });
    walled.catch(() => undefined);
    await inLine;
    // The wait in line outlasts the whole timeout: none of it is the page's.
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    for (const res of held.splice(0)) res.end('<p>Held page.</p>');
    await first;
    // Before: the basic attempt (403) had the time, the stealth retry ~1 ms of the fetch's budget: SCRAPE_TIMEOUT.
    const result = await walled;
    expect(result).toMatchObject({ status: 200, engine: 'browser', engineReason: 'blocked:403' });
    expect(result.text).toContain('The page behind the wall');
  }, 30_000);
});
