import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { startSelfSignedServer } from '../http/__fixtures__/self-signed-server.js';
import { Fetcher, NOT_SETTLED_WARNING, type PageResult } from '../index.js';

/** Chromium reaches the fixture server and the fake ad host (both 127.0.0.1) and nothing else. */
const ISOLATED_ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];
const POLICY = { allowedHosts: ['127.0.0.1', 'ad.doubleclick.net'] };
/** The network gate resolves the browser's targets: the fake ad host is 127.0.0.1, every other name is unknown. */
const lookup: LookupFunction = (hostname, options, callback) => {
  if (hostname !== 'ad.doubleclick.net' && hostname !== 'localhost') {
    const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    error.code = 'ENOTFOUND';
    return callback(error, '', 4);
  }
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};
const HTTP = { lookup };

let server: FixtureServer;
let fetcher: Fetcher;

beforeAll(async () => {
  server = await startFixtureServer();
  fetcher = new Fetcher({ browser: { args: ISOLATED_ARGS }, urlPolicy: POLICY, http: HTTP });
});

afterAll(async () => {
  await fetcher?.close();
  await server?.close();
});

const url = (path: string) => server.url + path;
const requestsTo = (path: string, host = '127.0.0.1') =>
  server.requests.filter((r) => r.path === path && r.host === host).length;

/** The JSON `/js/whoami` writes: what the server saw and what the page sees. */
function whoami(result: PageResult) {
  const pick = (id: string) =>
    JSON.parse(decodeHtml(new RegExp(`<pre id="${id}">(.*?)</pre>`).exec(result.text!)![1]!));
  return { server: pick('server') as Record<string, string>, client: pick('client') as Record<string, unknown> };
}
const decodeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const pngSize = (dataUrl: string) => {
  const bytes = Buffer.from(dataUrl.split(',')[1]!, 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
};

describe('engine choice', () => {
  it('serves static pages over HTTP without starting a browser', async () => {
    const launches = fetcher.browserStats.launches;
    const result = await fetcher.fetch({ url: url('/articles/first-post.html') });
    expect(result).toMatchObject({ engine: 'http', engineReason: 'http:static', proxyUsed: 'basic', status: 200 });
    expect(fetcher.browserStats.launches).toBe(launches);
  });

  it('retries a script-only page in the browser and waits for its late API call', async () => {
    const result = await fetcher.fetch({ url: url('/js/rendered.html') });
    expect(result).toMatchObject({ engine: 'browser', engineReason: 'js-required:script-only', status: 200 });
    expect(result.contentType).toBe('text/html');
    expect(result.text).toContain('This paragraph was fetched by a script after the page loaded.');
    expect(new TextDecoder().decode(result.body)).toBe(result.text);
    // It settled once that call had come back: no warning that it was captured still loading.
    expect(result.warnings).toBeUndefined();
  });

  it('detects an app shell and a noscript wall', async () => {
    const shell = await fetcher.fetch({ url: url('/js/app-shell.html') });
    expect(shell.engineReason).toBe('js-required:app-shell');
    expect(shell.text).toContain('A plain HTTP client sees an empty page');
    const wall = await fetcher.fetch({ url: url('/js/noscript.html') });
    expect(wall.engineReason).toBe('js-required:noscript-wall');
    expect(wall.text).toContain('Behind the noscript wall');
  });

  it('obeys a forced engine, listing the options HTTP cannot honour', async () => {
    const http = await fetcher.fetch({ url: url('/js/rendered.html'), engine: 'http', mobile: true, waitFor: 10 });
    expect(http).toMatchObject({
      engine: 'http',
      engineReason: 'engine:http',
      unsupportedFeatures: ['waitFor', 'mobile'],
    });
    expect(http.text).not.toContain('fetched by a script');
    const browser = await fetcher.fetch({ url: url('/articles/first-post.html'), engine: 'browser' });
    expect(browser).toMatchObject({ engine: 'browser', engineReason: 'engine:browser', status: 200 });
  });

  it('returns the bytes of non-HTML responses, not the viewer page around them', async () => {
    const result = await fetcher.fetch({ url: url('/api/data.json'), engine: 'browser' });
    expect(result.contentType).toBe('application/json');
    expect(JSON.parse(result.text!)).toMatchObject({ name: 'crawlkit' });
  });

  it('reports redirects and the final status', async () => {
    const result = await fetcher.fetch({ url: url('/redirect/chain'), engine: 'browser' });
    expect(result.url).toBe(url('/articles/first-post.html'));
    expect(result.redirects).toEqual([url('/redirect/chain'), url('/redirect/once')]);
    const missing = await fetcher.fetch({ url: url('/no/such/page'), engine: 'browser' });
    expect(missing.status).toBe(404);
  });

  it('fetches a download over HTTP instead of saving it', async () => {
    const result = await fetcher.fetch({ url: url('/js/download.bin'), engine: 'browser' });
    expect(result).toMatchObject({ engine: 'http', engineReason: 'download', status: 200 });
    expect(new TextDecoder().decode(result.body)).toBe('downloaded bytes\n');
    const pdf = await fetcher.fetch({ url: url('/files/report.pdf'), engine: 'browser' });
    expect(pdf).toMatchObject({ engine: 'http', engineReason: 'download', contentType: 'application/pdf' });
    expect(new TextDecoder().decode(pdf.body.subarray(0, 5))).toBe('%PDF-');
  });
});

describe('page options', () => {
  it('screenshots the final page as PNG, JPEG with quality, at a viewport, or the full page', async () => {
    const png = await fetcher.fetch({ url: url('/js/long.html'), screenshot: {} });
    expect(png.engineReason).toBe('options:screenshot');
    expect(png.screenshot).toMatch(/^data:image\/png;base64,/);
    expect(pngSize(png.screenshot!)).toEqual({ width: 1366, height: 768 });
    const jpeg = await fetcher.fetch({ url: url('/js/long.html'), screenshot: { quality: 40 } });
    expect(jpeg.screenshot).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    const sized = await fetcher.fetch({
      url: url('/js/long.html'),
      screenshot: { fullPage: true, viewport: { width: 500, height: 400 } },
    });
    const size = pngSize(sized.screenshot!);
    expect(size.width).toBe(500);
    expect(size.height).toBeGreaterThanOrEqual(3000);
  });

  it('drops fonts and media unless a screenshot needs them', async () => {
    const assets = () => server.requests.filter((r) => r.path.startsWith('/js/assets/')).map((r) => r.path);
    const before = assets().length;
    await fetcher.fetch({ url: url('/js/media.html'), engine: 'browser' });
    expect(assets().length).toBe(before);
    await fetcher.fetch({ url: url('/js/media.html'), screenshot: {} });
    expect(assets().slice(before)).toContain('/js/assets/fixture-sans.woff2');
  });

  it('adds waitFor on top of the smart wait', async () => {
    const started = Date.now();
    const result = await fetcher.fetch({ url: url('/articles/first-post.html'), waitFor: 700 });
    expect(result.engineReason).toBe('options:waitFor');
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });

  it('emulates a phone', async () => {
    const { server: seen, client } = whoami(await fetcher.fetch({ url: url('/js/whoami'), mobile: true }));
    expect(seen.userAgent).toMatch(/Android .* Mobile Safari/);
    expect(seen.secChUaMobile).toBe('?1');
    expect(client).toMatchObject({ screenWidth: 412, devicePixelRatio: 2.625, mobileHint: true });
    expect(client.maxTouchPoints).toBeGreaterThan(0);
  });

  it('emulates a country: language, time zone and geolocation', async () => {
    const result = await fetcher.fetch({ url: url('/js/whoami'), location: { country: 'de' } });
    expect(result.engineReason).toBe('options:location');
    const { server: seen, client } = whoami(result);
    expect(seen.acceptLanguage).toMatch(/^de-DE,de;q=0\.9/);
    expect(client).toMatchObject({ language: 'de-DE', timezone: 'Europe/Berlin', locale: 'de-DE' });
    expect(client.geolocation).toEqual({ latitude: 51.165691, longitude: 10.451526 });

    const japan = whoami(
      await fetcher.fetch({ url: url('/js/whoami'), location: { country: 'JP', languages: ['en-GB', 'ja'] } }),
    );
    expect(japan.server.acceptLanguage).toMatch(/^en-GB,en;q=0\.9,ja;q=0\.8/);
    expect(japan.client).toMatchObject({ language: 'en-GB', timezone: 'Asia/Tokyo' });
  });

  it('rejects an unknown country with the v2 message', async () => {
    await expect(fetcher.fetch({ url: url('/js/whoami'), location: { country: 'XX' } })).rejects.toMatchObject({
      code: 'SCRAPE_INVALID_REQUEST',
      message: 'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.',
    });
  });

  it('accepts self-signed certificates unless skipTlsVerification is false', async () => {
    const tls = await startSelfSignedServer();
    try {
      const ok = await fetcher.fetch({ url: `${tls.url}/`, engine: 'browser' });
      expect(ok.text).toContain('over TLS');
      await expect(
        fetcher.fetch({ url: `${tls.url}/`, engine: 'browser', skipTlsVerification: false }),
      ).rejects.toMatchObject({ code: 'SCRAPE_SSL_ERROR' });
    } finally {
      await tls.close();
    }
  });

  it('writes screenshots under browser.screenshotDir and returns the path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlkit-shots-'));
    const toFiles = new Fetcher({
      browser: { args: ISOLATED_ARGS, screenshotDir: dir },
      urlPolicy: POLICY,
      http: HTTP,
    });
    try {
      const result = await toFiles.fetch({ url: url('/js/long.html'), screenshot: { quality: 60 } });
      expect(result.screenshot!.startsWith(dir)).toBe(true);
      expect(existsSync(result.screenshot!)).toBe(true);
      expect(readFileSync(result.screenshot!).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8])); // JPEG
    } finally {
      await toFiles.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends the request headers from the browser too', async () => {
    const result = await fetcher.fetch({
      url: url('/js/whoami'),
      engine: 'browser',
      headers: { 'User-Agent': 'CustomAgent/1.0', 'X-Trace': 'abc' },
    });
    expect(whoami(result).server.userAgent).toBe('CustomAgent/1.0');
    const seen = server.requests.filter((r) => r.path === '/js/whoami').at(-1)!;
    expect(seen.headers['x-trace']).toBe('abc');
  });
});

describe('blockAds', () => {
  it('blocks the ad iframe and dismisses the consent banner and the cookie wall', async () => {
    const before = requestsTo('/js/ad-banner.html', 'ad.doubleclick.net');
    const result = await fetcher.fetch({ url: url('/js/consent.html'), engine: 'browser' });
    expect(requestsTo('/js/ad-banner.html', 'ad.doubleclick.net')).toBe(before);
    expect(result.blockedRequests).toBeGreaterThanOrEqual(1);
    expect(result.text).toContain('Article under a consent banner');
    expect(result.text).toContain('data-consent="rejected"'); // autoconsent pressed the CMP's own reject button
    expect(result.text).not.toContain('id="onetrust-banner-sdk"');
    expect(result.text).not.toContain('class="cookie-wall"');
    expect(result.text).not.toContain('id="ad-frame"');
  });

  it('leaves both in place with blockAds: false', async () => {
    const before = requestsTo('/js/ad-banner.html', 'ad.doubleclick.net');
    const result = await fetcher.fetch({ url: url('/js/consent.html'), engine: 'browser', blockAds: false });
    expect(requestsTo('/js/ad-banner.html', 'ad.doubleclick.net')).toBe(before + 1);
    expect(result.text).toContain('id="onetrust-banner-sdk"');
    expect(result.text).toContain('class="cookie-wall"');
    expect(result.text).toContain('id="ad-frame"');
  });
});

describe('URL policy in the browser', () => {
  it('refuses a main URL outside the policy before any request', async () => {
    await expect(
      fetcher.fetch({ url: `http://localhost:${server.port}/js/rendered.html`, engine: 'browser' }),
    ).rejects.toMatchObject({
      code: 'URL_BLOCKED',
    });
  });

  it('refuses subresources and redirect hops outside the policy', async () => {
    const strict = new Fetcher({
      browser: { args: ISOLATED_ARGS },
      urlPolicy: { allowedHosts: ['127.0.0.1'] },
      http: HTTP,
    });
    try {
      const before = requestsTo('/js/ad-banner.html', 'ad.doubleclick.net');
      const result = await strict.fetch({ url: url('/js/consent.html'), engine: 'browser', blockAds: false });
      expect(requestsTo('/js/ad-banner.html', 'ad.doubleclick.net')).toBe(before);
      expect(result.blockedRequests).toBe(1);
    } finally {
      await strict.close();
    }
  });
});

describe('page guards', () => {
  it('dismisses dialogs, even in a loop', async () => {
    const result = await fetcher.fetch({ url: url('/js/alerts.html'), engine: 'browser' });
    expect(result.text).toContain('Content after the dialogs.');
  });

  it('closes popups and stays on the page', async () => {
    const result = await fetcher.fetch({ url: url('/js/popup.html'), engine: 'browser' });
    expect(result.url).toBe(url('/js/popup.html'));
    expect(result.text).toContain('Still here.');
  });

  it('refuses downloads started by the page', async () => {
    const result = await fetcher.fetch({ url: url('/js/download.html'), engine: 'browser' });
    expect(result.text).toContain('Get the file');
  });

  it('captures a page that never settles when the smart wait runs out', async () => {
    const started = Date.now();
    const result = await fetcher.fetch({ url: url('/js/never-settles.html'), engine: 'browser', timeoutMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.text).toContain('A page that never settles');
    expect(result.warnings).toEqual([NOT_SETTLED_WARNING]);
  });
});

describe('actions through the fetcher', () => {
  it('runs actions in the browser and returns their results', async () => {
    const result = await fetcher.fetch({
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
    const result = await fetcher.fetch({
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
      fetcher.fetch({ url: url('/js/nav.html'), actions: [{ type: 'click', selector: '#nope' }] }),
    ).rejects.toMatchObject({ code: 'SCRAPE_ACTION_ERROR', index: 0, selector: '#nope' });
  });
});

describe('proxies and stealth', () => {
  it('applies fingerprint evasions with proxy: stealth', async () => {
    const plain = whoami(await fetcher.fetch({ url: url('/js/whoami'), engine: 'browser', proxy: 'basic' }));
    expect(plain.server.userAgent).toContain('HeadlessChrome');
    expect(plain.client.webdriver).toBe(true);

    const result = await fetcher.fetch({ url: url('/js/whoami'), proxy: 'stealth' });
    expect(result).toMatchObject({ engine: 'browser', engineReason: 'options:stealth', proxyUsed: 'stealth' });
    const { server: seen, client } = whoami(result);
    expect(seen.userAgent).not.toContain('Headless');
    expect(client.userAgent).not.toContain('Headless');
    expect(client).toMatchObject({ webdriver: false, hasChrome: true, webglVendor: 'Intel Inc.' });
    expect(client.plugins).toBeGreaterThan(0);
    expect(client.brands).not.toContain('HeadlessChrome');
  });

  it('retries a refused basic attempt with stealth under proxy: auto', async () => {
    const auto = await fetcher.fetch({ url: url('/js/bot-wall') });
    expect(auto).toMatchObject({ status: 200, engine: 'browser', engineReason: 'blocked:403', proxyUsed: 'stealth' });
    expect(auto.text).toContain('Welcome, human');
    const basic = await fetcher.fetch({ url: url('/js/bot-wall'), proxy: 'basic' });
    expect(basic).toMatchObject({ status: 403, engine: 'http', proxyUsed: 'basic' });
  });

  it('does not retry a 429 at once from the same address under proxy: auto', async () => {
    const path = '/http/status/429?auto';
    const result = await fetcher.fetch({ url: url(path) });
    expect(result).toMatchObject({ status: 429, engine: 'http', proxyUsed: 'basic' });
    expect(server.requests.filter((r) => r.path === path)).toHaveLength(1);
  });

  it('keeps the basic result when stealth is refused too', async () => {
    const result = await fetcher.fetch({ url: url('/status/500') });
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
        browser: { args: ISOLATED_ARGS },
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
        expect(tunnels).toContain(`127.0.0.1:${server.port}`);
      } finally {
        await viaProxy.close();
      }
    });

    it('picks the proxy of the requested country', async () => {
      const byCountry = new Fetcher({
        browser: { args: ISOLATED_ARGS },
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
