/**
 * A browser scrape's own `headers` (a session cookie, `Authorization`) go to the scraped page's host, not to the other
 * hosts its page loads from (CDNs, analytics, ads), which would otherwise get the user's credentials.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Fetcher } from '../index.js';
import { HTTP, testBrowser } from './__fixtures__/browser-harness.js';

let server: Server;
let port: number;
let fetcher: Fetcher;
/** Requests the server answered, by path: the host they were sent to and their headers. */
const seen = new Map<string, IncomingHttpHeaders>();
let bothSeen: () => void;
const both = new Promise<void>((resolve) => (bothSeen = resolve));

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/page') {
      // The page on 127.0.0.1 loads a script from its own host and one from another host (localhost); scripts,
      // because a page that takes no picture never loads its images.
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<h1>Account</h1><p>Your orders and invoices.</p>
        <script src="http://127.0.0.1:${port}/own.js"></script><script src="http://localhost:${port}/third-party.js"></script>`,
      );
      return;
    }
    seen.set(path, req.headers);
    if (seen.has('/own.js') && seen.has('/third-party.js')) bothSeen();
    res.writeHead(200, { 'content-type': 'text/javascript' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  fetcher = new Fetcher({
    browser: await testBrowser(),
    urlPolicy: { allowedHosts: ['127.0.0.1', 'localhost'] },
    http: HTTP,
  });
});

afterAll(async () => {
  await fetcher?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe("a browser scrape's own headers", () => {
  it("are sent to the page's host only, not to the other hosts it loads from", async () => {
    await fetcher.fetch({
      url: `http://127.0.0.1:${port}/page`,
      engine: 'browser',
      headers: { cookie: 'session=s3cret', authorization: 'Bearer t0ken', 'user-agent': 'MyBot/1.0' },
    });
    await both;
    expect(seen.get('/own.js')).toMatchObject({ cookie: 'session=s3cret', authorization: 'Bearer t0ken' });
    // Before: the other host got the session cookie and the bearer token too.
    const third = seen.get('/third-party.js')!;
    expect(third.cookie).toBeUndefined();
    expect(third.authorization).toBeUndefined();
    // The user agent is the browser's: every host sees it.
    expect(third['user-agent']).toBe('MyBot/1.0');
  }, 30_000);
});
