import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Fetcher, NOT_SETTLED_WARNING } from '../index.js';
import { HTTP, POLICY, testBrowser, useBrowserFixture, whoami } from './__fixtures__/browser-harness.js';

// The fake ad host is outside the policy here: one fetcher (one Chromium) serves the policy's tests and the rest.
const fixture = useBrowserFixture({ allowedHosts: ['127.0.0.1'] });
const url = (path: string) => fixture.url(path);
const requestsTo = (path: string, host?: string) => fixture.requestsTo(path, host);

describe('URL policy in the browser', () => {
  it('refuses a main URL outside the policy before any request', async () => {
    await expect(
      fixture.fetcher.fetch({ url: `http://localhost:${fixture.server.port}/js/rendered.html`, engine: 'browser' }),
    ).rejects.toMatchObject({
      code: 'URL_BLOCKED',
    });
  });

  it('refuses subresources and redirect hops outside the policy', async () => {
    const before = requestsTo('/js/ad-banner.html', 'ad.doubleclick.net');
    const result = await fixture.fetcher.fetch({ url: url('/js/consent.html'), engine: 'browser', blockAds: false });
    expect(requestsTo('/js/ad-banner.html', 'ad.doubleclick.net')).toBe(before);
    expect(result.blockedRequests).toBe(1);
  });
});

describe('redirect errors: the same code from both engines', () => {
  // A chain that comes back to a URL it visited is a loop, whatever its length; a chain that goes on to new URLs past
  // the limit (20, Chromium's and the Fetch standard's) is too long.
  it.each(['http', 'browser'] as const)(
    '%s: a loop is SCRAPE_REDIRECT_LOOP, a long chain SCRAPE_TOO_MANY_REDIRECTS',
    async (engine) => {
      for (const path of ['/hostile/loop/a', '/hostile/self-redirect']) {
        await expect(fixture.fetcher.fetch({ url: url(path), engine })).rejects.toMatchObject({
          code: 'SCRAPE_REDIRECT_LOOP',
        });
      }
      await expect(fixture.fetcher.fetch({ url: url('/http/redirect/hops/25'), engine })).rejects.toMatchObject({
        code: 'SCRAPE_TOO_MANY_REDIRECTS',
      });
      const arrived = await fixture.fetcher.fetch({ url: url('/http/redirect/hops/19'), engine });
      expect(arrived.text).toContain('Arrived');
    },
  );

  it.each(['http', 'browser'] as const)('%s: follows http.limits.maxRedirects', async (engine) => {
    const strict = new Fetcher({ browser: await testBrowser(), http: { ...HTTP, limits: { maxRedirects: 5 } } });
    try {
      const arrived = await strict.fetch({ url: url('/http/redirect/hops/5'), engine });
      expect(arrived.text).toContain('Arrived');
      await expect(strict.fetch({ url: url('/http/redirect/hops/6'), engine })).rejects.toMatchObject({
        code: 'SCRAPE_TOO_MANY_REDIRECTS',
        message: 'Too many redirects (more than 5).',
      });
    } finally {
      await strict.close();
    }
  });
});

describe('page guards', () => {
  it('dismisses dialogs, even in a loop', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/js/alerts.html'), engine: 'browser' });
    expect(result.text).toContain('Content after the dialogs.');
  });

  it('closes popups and stays on the page', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/js/popup.html'), engine: 'browser' });
    expect(result.url).toBe(url('/js/popup.html'));
    expect(result.text).toContain('Still here.');
  });

  it('refuses downloads started by the page', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/js/download.html'), engine: 'browser' });
    expect(result.text).toContain('Get the file');
  });

  it('captures a page that never settles when the smart wait runs out', async () => {
    // The smart wait's own cap ends it, well inside the timeout: with the default cap (10 s) the 5 s timeout's
    // budget ended it, and a loaded machine's capture outran the second the timeout keeps for it.
    const capped = new Fetcher({ browser: { ...(await testBrowser()), smartWaitMaxMs: 1_500 }, http: HTTP });
    try {
      await capped.fetch({ url: url('/js/rendered.html'), engine: 'browser' }); // its connection is not the page's time
      const started = Date.now();
      const result = await capped.fetch({ url: url('/js/never-settles.html'), engine: 'browser', timeoutMs: 5_000 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(result.text).toContain('A page that never settles');
      expect(result.warnings).toEqual([NOT_SETTLED_WARNING]);
    } finally {
      await capped.close();
    }
  });
});

describe('actions through the fetcher', () => {
  it('runs actions in the browser and returns their results', async () => {
    const result = await fixture.fetcher.fetch({
      url: url('/js/load-more.html'),
      actions: [
        { type: 'click', selector: '#load-more' },
        { type: 'executeJavascript', script: "document.querySelectorAll('li.item').length" },
        { type: 'screenshot' },
        { type: 'scrape' },
      ],
    });
    expect(result.engineReason).toBe('options:actions');
    expect(result.actions?.javascriptReturns).toEqual([{ type: 'number', value: 20 }]);
    expect(result.actions?.screenshots[0]).toMatch(/^data:image\/png;base64,/);
    expect(result.actions?.scrapes[0]?.html).toContain('Item 20');
    expect(result.text).toContain('Item 20');
  });

  it('follows a form submission to its result page', async () => {
    const result = await fixture.fetcher.fetch({
      url: url('/js/form.html'),
      actions: [
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'kit' },
        { type: 'press', key: 'Enter' },
      ],
    });
    expect(result.url).toBe(url('/js/search?q=kit'));
    expect(result.text).toContain('Results for kit');
  });

  it('fails with SCRAPE_ACTION_ERROR naming the action', async () => {
    await expect(
      fixture.fetcher.fetch({ url: url('/js/nav.html'), actions: [{ type: 'click', selector: '#nope' }] }),
    ).rejects.toMatchObject({ code: 'SCRAPE_ACTION_ERROR', index: 0, selector: '#nope' });
  });
});

describe('proxies and stealth', () => {
  it('applies fingerprint evasions with proxy: stealth', async () => {
    const plain = whoami(await fixture.fetcher.fetch({ url: url('/js/whoami'), engine: 'browser', proxy: 'basic' }));
    expect(plain.server.userAgent).toContain('HeadlessChrome');
    expect(plain.client.webdriver).toBe(true);

    const result = await fixture.fetcher.fetch({ url: url('/js/whoami'), proxy: 'stealth' });
    // No stealth proxy is configured: the evasions ran, and the page says (and is billed as) basic.
    expect(result).toMatchObject({ engine: 'browser', engineReason: 'options:stealth', proxyUsed: 'basic' });
    const { server: seen, client } = whoami(result);
    expect(seen.userAgent).not.toContain('Headless');
    expect(client.userAgent).not.toContain('Headless');
    expect(client).toMatchObject({ webdriver: false, hasChrome: true, webglVendor: 'Intel Inc.' });
    expect(client.plugins).toBeGreaterThan(0);
    expect(client.brands).not.toContain('HeadlessChrome');
  });

  it('retries a refused basic attempt with stealth under proxy: auto', async () => {
    const auto = await fixture.fetcher.fetch({ url: url('/js/bot-wall') });
    expect(auto).toMatchObject({ status: 200, engine: 'browser', engineReason: 'blocked:403', proxyUsed: 'basic' });
    expect(auto.text).toContain('Welcome, human');
    const basic = await fixture.fetcher.fetch({ url: url('/js/bot-wall'), proxy: 'basic' });
    expect(basic).toMatchObject({ status: 403, engine: 'http', proxyUsed: 'basic' });
  });

  it('does not retry a 429 at once from the same address under proxy: auto', async () => {
    const path = '/http/status/429?auto';
    const result = await fixture.fetcher.fetch({ url: url(path) });
    expect(result).toMatchObject({ status: 429, engine: 'http', proxyUsed: 'basic' });
    expect(fixture.server.requests.filter((r) => r.path === path)).toHaveLength(1);
  });

  it('keeps the basic result when stealth is refused too', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/status/500') });
    expect(result).toMatchObject({ status: 500, proxyUsed: 'basic' });
  });

  describe('through a local proxy', () => {
    let proxyServer: ProxyServer;
    let proxied: string[];
    let tunnels: string[];
    let proxyUrl: string;

    beforeAll(async () => {
      proxied = [];
      tunnels = [];
      proxyServer = createProxy(createServer());
      proxyServer.on('connect', (req: { url?: string }) => tunnels.push(req.url ?? ''));
      proxyServer.authenticate = (req) =>
        req.headers['proxy-authorization'] === `Basic ${Buffer.from('user:secret').toString('base64')}`;
      proxyServer.on('request', (req) => proxied.push(req.url ?? ''));
      await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
      proxyUrl = `http://user:secret@127.0.0.1:${(proxyServer.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      proxyServer.closeAllConnections();
      await new Promise((resolve) => proxyServer.close(resolve));
    });

    it('sends browser and HTTP requests through the configured proxy, with its credentials', async () => {
      const viaProxy = new Fetcher({
        browser: await testBrowser(),
        urlPolicy: POLICY,
        http: HTTP,
        proxies: { basic: [proxyUrl], proxyLoopback: true },
      });
      try {
        const rendered = await viaProxy.fetch({ url: url('/js/rendered.html') });
        expect(rendered.text).toContain('fetched by a script');
        expect(proxied).toContain(url('/js/rendered.html'));
        expect(proxied).toContain(url('/js/api/slow?ms=400'));
        // The HTTP attempt tunnels (CONNECT); the browser's requests arrive through the gate in absolute form.
        expect(tunnels).toContain(`127.0.0.1:${fixture.server.port}`);
      } finally {
        await viaProxy.close();
      }
    });

    it('picks the proxy of the requested country', async () => {
      const byCountry = new Fetcher({
        browser: await testBrowser(),
        urlPolicy: POLICY,
        http: HTTP,
        proxies: { byCountry: { fr: [proxyUrl] }, proxyLoopback: true },
      });
      try {
        const before = proxied.length;
        await byCountry.fetch({ url: url('/js/whoami?direct'), location: { country: 'DE' } });
        expect(proxied.length).toBe(before);
        const result = await byCountry.fetch({ url: url('/js/whoami?fr'), location: { country: 'FR' } });
        expect(proxied).toContain(url('/js/whoami?fr'));
        expect(whoami(result).client.timezone).toBe('Europe/Paris');
      } finally {
        await byCountry.close();
      }
    });
  });
});
