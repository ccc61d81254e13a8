/**
 * `crawlkit serve` behind a reverse proxy: the job URLs it answers (a job's `url`, a status page's `next`, which the
 * SDKs follow to read the rest of a job) are the address the client reached, with the proxy's path, not the address
 * the proxy reached the server at. A real proxy on 127.0.0.1 rewrites `Host` as nginx's `proxy_pass` does.
 */
import { isInvalidOptionError } from '@crawlkit/options';
import Firecrawl from '@mendable/firecrawl-js';
import { startServer, type CrawlkitServer } from '@crawlkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { until } from './helpers-batch.ts';
import { call } from './helpers/raw-http.ts';
import { startReverseProxy, type ReverseProxy } from './helpers/reverse-proxy.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const KEY = 'fc-public-url-0123456789';
const auth = { authorization: `Bearer ${KEY}` };
/** The name the proxy reaches the server by (a compose service): the client cannot resolve it. */
const UPSTREAM = 'crawlkit-api:3002';

let stack: ServeStack;
let proxy: ReverseProxy;
/** The API through the proxy: `http://127.0.0.1:<proxy port>/crawlkit`. */
let api = '';
let target = '';
/** A finished batch of two pages: its status read one page at a time has a `next`. */
let batch = '';
const closers: { close(): Promise<void> }[] = [];

/** `path` of the API at `base` (which may hold a path). */
const at = (base: string, path: string) => `${base}${path}`;

beforeAll(async () => {
  proxy = await startReverseProxy({ target: () => target, prefix: '/crawlkit', upstreamHost: UPSTREAM });
  api = `${proxy.url}/crawlkit`;
  stack = await startServeStack({ server: { apiKeys: [KEY], publicUrl: `${api}/` } });
  target = stack.server.url;
  const fc = new Firecrawl({ apiKey: KEY, apiUrl: api });
  batch = (await fc.startBatchScrape([stack.page('/slow/a?ms=1'), stack.page('/slow/b?ms=1')])).id;
  await until(async () => (await fc.getBatchScrapeStatus(batch)).status === 'completed');
});

afterAll(async () => {
  for (const closer of closers.reverse()) await closer.close();
  await proxy?.close();
  await stack?.close();
});

/** The first page (one document) of the batch's status, read at `base`. */
async function firstPage(base: string, headers: Record<string, string> = {}) {
  const page = await call(base, 'GET', at(base, `/v2/batch/scrape/${batch}?limit=1`), {
    headers: { ...auth, ...headers },
  });
  expect(page.status).toBe(200);
  return page.body as { next?: string; data: unknown[] };
}

describe('publicUrl', () => {
  it('builds the job URLs the SDK gets on it, path included, and they answer through the proxy', async () => {
    const fc = new Firecrawl({ apiKey: KEY, apiUrl: api });
    const started = await fc.startBatchScrape([stack.page('/slow/e?ms=1')]);
    expect(started.url).toBe(`${api}/v2/batch/scrape/${started.id}`);

    const first = await firstPage(api);
    expect(first.next).toBe(`${api}/v2/batch/scrape/${batch}?skip=1&limit=1`);
    // The rest of the job is read where the client was sent: through the proxy.
    const rest = await fetch(first.next!, { headers: auth });
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  it('also routes a proxy that keeps the path prefix: /crawlkit/v2/... is /v2/...', async () => {
    const keeping = await startReverseProxy({
      target: () => target,
      prefix: '/crawlkit',
      strip: false,
      upstreamHost: UPSTREAM,
    });
    closers.push(keeping);
    const first = await firstPage(`${keeping.url}/crawlkit`);
    expect(first.next).toBe(`${api}/v2/batch/scrape/${batch}?skip=1&limit=1`);
    // Paths without the prefix are routed as before, and a path that only starts like it is not the prefix.
    expect((await firstPage(target)).data).toHaveLength(1);
    expect((await call(target, 'GET', '/crawlkitx/v2/team/queue-status', { headers: auth })).status).toBe(404);
  });

  it('refuses a public URL that is not an http(s) base, saying what to give', async () => {
    for (const publicUrl of ['api.example.com', 'ftp://api.example.com', 'https://api.example.com/?a=1']) {
      const refused = await startServer({ crawlkit: stack.ck, port: 0, publicUrl }).catch((error: unknown) => error);
      expect(isInvalidOptionError(refused)).toBe(true);
      expect(String(refused)).toContain('like https://api.example.com/crawlkit');
    }
  });
});

describe('trustProxy', () => {
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.test' };

  it("builds the job URLs on a trusted proxy's X-Forwarded-Proto and X-Forwarded-Host", async () => {
    const lines: string[] = [];
    const logger = { debug: () => {}, info: (line: string) => void lines.push(line), warn: () => {}, error: () => {} };
    const server = await startServer({ crawlkit: stack.ck, port: 0, apiKeys: [KEY], trustProxy: ['loopback'], logger });
    closers.push(server);
    const front = await startReverseProxy({
      target: () => server.url,
      upstreamHost: UPSTREAM,
      forwarded: () => forwarded,
    });
    closers.push(front);
    expect((await firstPage(front.url)).next).toBe(`https://api.example.test/v2/batch/scrape/${batch}?skip=1&limit=1`);
    // The access line names the client the proxy forwarded for, not the proxy.
    await firstPage(front.url, { 'x-forwarded-for': '203.0.113.7' });
    await until(() => lines.some((line) => line.includes('203.0.113.7')));
    expect(lines.at(-1)).toMatch(/^GET \/v2\/batch\/scrape\/\S+ 200 \d+ ms 203\.0\.113\.7 key-[0-9a-f]{16}$/);
  });

  it('ignores X-Forwarded-* unless trusted: a client cannot choose the address it is answered', async () => {
    // Behind a proxy that rewrites Host and sends no X-Forwarded-*, without publicUrl: the Host it sent, as upstream.
    const plain: CrawlkitServer = await startServer({ crawlkit: stack.ck, port: 0, apiKeys: [KEY] });
    closers.push(plain);
    const front = await startReverseProxy({ target: () => plain.url, upstreamHost: UPSTREAM });
    closers.push(front);
    expect((await firstPage(front.url)).next).toBe(`http://${UPSTREAM}/v2/batch/scrape/${batch}?skip=1&limit=1`);
    expect((await firstPage(plain.url, forwarded)).next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/batch/);
    // With a public URL, whatever the headers say.
    expect((await firstPage(target, forwarded)).next).toBe(`${api}/v2/batch/scrape/${batch}?skip=1&limit=1`);
  });
});
