/**
 * The URL policy end to end: blocked addresses and schemes at the public API, webhooks, sitemaps, robots.txt through
 * the proxy and browser refreshes. The fetcher's own tests cover each rule against misbehaving local servers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { useFixtureServer } from './helpers/fixture-engine.ts';
import { ISOLATED_ARGS } from './helpers/scrape.ts';

const fixture = useFixtureServer();

describe('the URL policy at the public API', () => {
  it('refuses a blocked address with URL_BLOCKED naming the rule, directly and after a redirect', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http', urlPolicy: 'strict' });
    try {
      const direct = await ck.scrape({ url: `${fixture.server.url}/articles/first-post.html` });
      expect(direct).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      expect((direct as ErrorResponse).error).toMatch(/loopback|private/i);
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://0x7f000001/',
        'http://[::ffff:127.0.0.1]/',
      ]) {
        expect(await ck.scrape({ url })).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      }
    } finally {
      await ck.close();
    }

    const hosts = new Crawlkit({ store: 'memory', engine: 'http', urlPolicy: { blockedHosts: ['localhost'] } });
    try {
      const redirected = await hosts.scrape({
        url: `${fixture.server.url}/hostile/redirect-to?url=${encodeURIComponent(`http://localhost:${fixture.server.port}/`)}`,
      });
      expect(redirected).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      expect((redirected as ErrorResponse).error).toMatch(/blockedHosts/);
    } finally {
      await hosts.close();
    }
  });

  it('refuses a URL the page cache holds too: a copy is served, or searched, only where the policy would fetch it', async () => {
    // Cached by an engine allowed everything (a CLI run on the same store), then asked of engines that are not.
    const storeDir = mkdtempSync(join(tmpdir(), 'ck-policy-cache-'));
    const page = `${fixture.server.url}/articles/first-post.html`;
    const redirect = `${fixture.server.url}/hostile/redirect-to?url=${encodeURIComponent(`http://localhost:${fixture.server.port}/`)}`;
    try {
      const open = new Crawlkit({ storeDir, engine: 'http' });
      try {
        for (const url of [page, redirect]) expect(await open.scrape({ url })).toMatchObject({ success: true });
      } finally {
        await open.close();
      }
      const strict = new Crawlkit({ storeDir, engine: 'http', urlPolicy: 'strict' });
      try {
        for (const body of [{ url: page }, { url: page, lockdown: true }]) {
          const answer = await strict.scrape(body);
          expect(answer, JSON.stringify(body)).toMatchObject({ success: false, code: 'URL_BLOCKED' });
          expect((answer as ErrorResponse).error).toMatch(/loopback/);
        }
        // Nor does the search index of the stored pages show their text.
        const found = await strict.search({ query: 'hand plane' });
        expect(found).toMatchObject({ success: true, data: { web: [] } });
      } finally {
        await strict.close();
      }
      // The copy of a URL that redirected to a refused host is refused by where it ended.
      const hosts = new Crawlkit({ storeDir, engine: 'http', urlPolicy: { blockedHosts: ['localhost'] } });
      try {
        expect(await hosts.scrape({ url: redirect })).toMatchObject({ success: false, code: 'URL_BLOCKED' });
        const allowed = await hosts.scrape({ url: page });
        expect(allowed).toMatchObject({ success: true, data: { metadata: { cacheState: 'hit' } } });
        const found = await hosts.search({ query: 'hand plane' });
        expect(found.success && found.data.web?.map((result) => result.url)).toEqual([page]);
      } finally {
        await hosts.close();
      }
    } finally {
      rmSync(storeDir, { recursive: true, force: true });
    }
  });

  it('refuses non-web schemes for page URLs with BAD_REQUEST', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      for (const url of ['file:///etc/passwd', 'data:text/html,hi', 'javascript:alert(1)', 'ftp://127.0.0.1/x']) {
        expect(await ck.scrape({ url }), url).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect(await ck.crawl({ url }), url).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect(await ck.map({ url }), url).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      }
    } finally {
      await ck.close();
    }
  });

  it('refuses a webhook to a blocked target at submit: no job, no delivery', async () => {
    // Deliveries are gated again under the job's policy wherever they are sent: test/webhook-url-policy.test.ts.
    let hits = 0;
    const receiver: Server = createServer((_req, res) => {
      hits++;
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as AddressInfo).port;
    const ck = new Crawlkit({
      store: 'memory',
      engine: 'http',
      urlPolicy: { allowedPorts: [fixture.server.port] },
      webhooks: { maxAttempts: 1, timeoutMs: 1000 },
    });
    try {
      const batch = await ck.batchScrape({
        urls: [`${fixture.server.url}/articles/first-post.html`],
        webhook: `http://127.0.0.1:${port}/hook`,
      });
      expect(batch).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      expect((batch as { error: string }).error).toMatch(/webhook.*allowedPorts/);
      expect(await ck.listUnfinishedJobs()).toEqual([]);
      expect(hits).toBe(0);
    } finally {
      await ck.close();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});

describe('the URL policy on every path (issue 23)', () => {
  /** A small site: robots.txt pointing at a sitemap that lists a page and a URL on a port the policies refuse. */
  let site: Server;
  let sitePort: number;
  let seen: string[];
  const REFUSED_PORT = 1;

  beforeAll(async () => {
    seen = [];
    site = createServer((req, res) => {
      seen.push(req.url ?? '');
      const host = req.headers.host ?? '';
      const origin = `http://${host}`;
      const refused = `http://${host.replace(/:\d+$/, '')}:${REFUSED_PORT}`;
      switch (req.url) {
        case '/robots.txt':
          return void res
            .writeHead(200, { 'content-type': 'text/plain' })
            .end(`User-agent: *\nSitemap: ${origin}/sitemap.xml\n`);
        case '/sitemap.xml':
          return void res
            .writeHead(200, { 'content-type': 'application/xml' })
            .end(
              `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
                `<url><loc>${origin}/guide</loc></url><url><loc>${refused}/admin</loc></url></urlset>`,
            );
        case '/refresh':
          return void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(`<meta http-equiv="refresh" content="0; url=${refused}/internal"><h1>Moved</h1><p>Redirecting.</p>`);
        default:
          return void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end('<title>Guide</title><h1>Guide</h1><p>A page of the site, with enough words to count as one.</p>');
      }
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    sitePort = (site.address() as AddressInfo).port;
  });

  afterAll(async () => {
    site.closeAllConnections();
    await new Promise<void>((r) => site.close(() => r()));
  });

  it('compares addresses in one form: blockedHosts 127.0.0.1 refuses its IPv6 spellings', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http', urlPolicy: { blockedHosts: ['127.0.0.1'] } });
    try {
      for (const host of ['[::ffff:127.0.0.1]', '[::7f00:1]', '[64:ff9b::7f00:1]']) {
        const response = await ck.scrape({ url: `http://${host}:${sitePort}/guide` });
        expect(response, host).toMatchObject({ success: false, code: 'URL_BLOCKED' });
      }
    } finally {
      await ck.close();
    }
  });

  it('map leaves out the sitemap URLs the policy refuses', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http', urlPolicy: { allowedPorts: [sitePort] } });
    try {
      const mapped = await ck.map({ url: `http://127.0.0.1:${sitePort}/`, sitemap: 'only' });
      if (!mapped.success) throw new Error(mapped.error);
      const urls = mapped.links.map((l) => l.url);
      expect(urls).toContain(`http://127.0.0.1:${sitePort}/guide`);
      expect(urls.filter((u) => u.includes(`:${REFUSED_PORT}/`))).toEqual([]);
    } finally {
      await ck.close();
    }
  });

  it('fetches robots.txt and sitemaps through the same proxy as the pages', async () => {
    // The proxy is the only way to the site: it answers for a name this machine cannot resolve.
    const tunnels: string[] = [];
    const proxy = createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const upstream = connect(sitePort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        upstream.pipe(client).on('error', () => undefined);
        client.pipe(upstream).on('error', () => undefined);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const ck = new Crawlkit({
      store: 'memory',
      engine: 'http',
      proxies: { basic: [`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`] },
    });
    try {
      seen.length = 0;
      const crawl = await ck.crawl({ url: 'http://site.invalid-tld.test/', limit: 3, sitemap: 'include' });
      if (!crawl.success) throw new Error(crawl.error);
      await ck.waitForJob(crawl.id);
      const mapped = await ck.map({ url: 'http://site.invalid-tld.test/', sitemap: 'only' });
      expect(seen.filter((p) => p === '/robots.txt').length).toBeGreaterThanOrEqual(2);
      expect(seen).toContain('/sitemap.xml');
      expect(mapped.success && mapped.links.map((l) => l.url)).toContain('http://site.invalid-tld.test/guide');
      expect(tunnels).toContain('site.invalid-tld.test:80');
      expect(tunnels.every((t) => t.startsWith('site.invalid-tld.test:'))).toBe(true);
    } finally {
      await ck.close();
      proxy.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  it('answers URL_BLOCKED when a page in the browser refreshes to a refused URL', async () => {
    const ck = new Crawlkit({
      store: 'memory',
      engine: 'browser',
      browser: { args: ISOLATED_ARGS },
      urlPolicy: { allowedPorts: [sitePort] },
      timeoutMs: 20_000,
    });
    try {
      const response = await ck.scrape({ url: `http://127.0.0.1:${sitePort}/refresh`, maxAge: 0 });
      expect(response).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    } finally {
      await ck.close();
    }
  }, 40_000);
});
