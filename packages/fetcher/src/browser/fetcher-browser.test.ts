import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { startSelfSignedServer } from '../http/__fixtures__/self-signed-server.js';
import { Fetcher } from '../index.js';
import { HTTP, POLICY, pngSize, testBrowser, useBrowserFixture, whoami } from './__fixtures__/browser-harness.js';

const fixture = useBrowserFixture();
const url = (path: string) => fixture.url(path);
const requestsTo = (path: string, host?: string) => fixture.requestsTo(path, host);

describe('engine choice', () => {
  it('serves static pages over HTTP without starting a browser', async () => {
    const started = () => fixture.fetcher.browserStats.launches + fixture.fetcher.browserStats.connections;
    const before = started();
    const result = await fixture.fetcher.fetch({ url: url('/articles/first-post.html') });
    expect(result).toMatchObject({ engine: 'http', engineReason: 'http:static', proxyUsed: 'basic', status: 200 });
    expect(started()).toBe(before);
  });

  it('retries a script-only page in the browser and waits for its late API call', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/js/rendered.html') });
    expect(result).toMatchObject({ engine: 'browser', engineReason: 'js-required:script-only', status: 200 });
    expect(result.contentType).toBe('text/html');
    expect(result.text).toContain('This paragraph was fetched by a script after the page loaded.');
    expect(new TextDecoder().decode(result.body)).toBe(result.text);
    // It settled once that call had come back: no warning that it was captured still loading.
    expect(result.warnings).toBeUndefined();
  });

  it('follows a meta refresh stub in the browser, and learns nothing from the other page it ends on', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/js/moved.html') });
    expect(result).toMatchObject({ engine: 'browser', engineReason: 'js-required:meta-refresh' });
    expect(result.url).toBe(url('/js/nav-target.html'));
    expect(result.engineEvidence).toBeUndefined();
  });

  it('detects an app shell and a noscript wall', async () => {
    const shell = await fixture.fetcher.fetch({ url: url('/js/app-shell.html') });
    expect(shell.engineReason).toBe('js-required:app-shell');
    expect(shell.text).toContain('A plain HTTP client sees an empty page');
    const wall = await fixture.fetcher.fetch({ url: url('/js/noscript.html') });
    expect(wall.engineReason).toBe('js-required:noscript-wall');
    expect(wall.text).toContain('Behind the noscript wall');
  });

  it('obeys a forced engine, listing the options HTTP cannot honour', async () => {
    const http = await fixture.fetcher.fetch({
      url: url('/js/rendered.html'),
      engine: 'http',
      mobile: true,
      waitFor: 10,
    });
    expect(http).toMatchObject({
      engine: 'http',
      engineReason: 'engine:http',
      unsupportedFeatures: ['waitFor', 'mobile'],
    });
    expect(http.text).not.toContain('fetched by a script');
    const browser = await fixture.fetcher.fetch({ url: url('/articles/first-post.html'), engine: 'browser' });
    expect(browser).toMatchObject({ engine: 'browser', engineReason: 'engine:browser', status: 200 });
  });

  it('returns the bytes of non-HTML responses, not the viewer page around them', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/api/data.json'), engine: 'browser' });
    expect(result.contentType).toBe('application/json');
    expect(JSON.parse(result.text!)).toMatchObject({ name: 'crawlkit' });
  });

  it('reports redirects and the final status', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/redirect/chain'), engine: 'browser' });
    expect(result.url).toBe(url('/articles/first-post.html'));
    expect(result.redirects).toEqual([url('/redirect/chain'), url('/redirect/once')]);
    const missing = await fixture.fetcher.fetch({ url: url('/no/such/page'), engine: 'browser' });
    expect(missing.status).toBe(404);
  });

  it('fetches a download over HTTP instead of saving it', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/js/download.bin'), engine: 'browser' });
    expect(result).toMatchObject({ engine: 'http', engineReason: 'download', status: 200 });
    expect(new TextDecoder().decode(result.body)).toBe('downloaded bytes\n');
    const pdf = await fixture.fetcher.fetch({ url: url('/files/report.pdf'), engine: 'browser' });
    expect(pdf).toMatchObject({ engine: 'http', engineReason: 'download', contentType: 'application/pdf' });
    expect(new TextDecoder().decode(pdf.body.subarray(0, 5))).toBe('%PDF-');
  });
});

describe('page options', () => {
  it('screenshots the final page as PNG, JPEG with quality, at a viewport, or the full page', async () => {
    const png = await fixture.fetcher.fetch({ url: url('/js/long.html'), screenshot: {} });
    expect(png.engineReason).toBe('options:screenshot');
    expect(png.screenshot).toMatch(/^data:image\/png;base64,/);
    expect(pngSize(png.screenshot!)).toEqual({ width: 1366, height: 768 });
    const jpeg = await fixture.fetcher.fetch({ url: url('/js/long.html'), screenshot: { quality: 40 } });
    expect(jpeg.screenshot).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    const sized = await fixture.fetcher.fetch({
      url: url('/js/long.html'),
      screenshot: { fullPage: true, viewport: { width: 500, height: 400 } },
    });
    const size = pngSize(sized.screenshot!);
    expect(size.width).toBe(500);
    expect(size.height).toBeGreaterThanOrEqual(3000);
  });

  it('drops fonts and media unless a screenshot needs them', async () => {
    const assets = () => fixture.server.requests.filter((r) => r.path.startsWith('/js/assets/')).map((r) => r.path);
    const before = assets().length;
    await fixture.fetcher.fetch({ url: url('/js/media.html'), engine: 'browser' });
    expect(assets().length).toBe(before);
    await fixture.fetcher.fetch({ url: url('/js/media.html'), screenshot: {} });
    expect(assets().slice(before)).toContain('/js/assets/fixture-sans.woff2');
  });

  it('adds waitFor on top of the smart wait', async () => {
    const started = Date.now();
    const result = await fixture.fetcher.fetch({ url: url('/articles/first-post.html'), waitFor: 700 });
    expect(result.engineReason).toBe('options:waitFor');
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });

  it('emulates a phone', async () => {
    const { server: seen, client } = whoami(await fixture.fetcher.fetch({ url: url('/js/whoami'), mobile: true }));
    expect(seen.userAgent).toMatch(/Android .* Mobile Safari/);
    expect(seen.secChUaMobile).toBe('?1');
    expect(client).toMatchObject({ screenWidth: 412, devicePixelRatio: 2.625, mobileHint: true });
    expect(client.maxTouchPoints).toBeGreaterThan(0);
  });

  it('emulates a country: language, time zone and geolocation', async () => {
    const result = await fixture.fetcher.fetch({ url: url('/js/whoami'), location: { country: 'de' } });
    expect(result.engineReason).toBe('options:location');
    const { server: seen, client } = whoami(result);
    expect(seen.acceptLanguage).toMatch(/^de-DE,de;q=0\.9/);
    expect(client).toMatchObject({ language: 'de-DE', timezone: 'Europe/Berlin', locale: 'de-DE' });
    expect(client.geolocation).toEqual({ latitude: 51.165691, longitude: 10.451526 });

    const japan = whoami(
      await fixture.fetcher.fetch({ url: url('/js/whoami'), location: { country: 'JP', languages: ['en-GB', 'ja'] } }),
    );
    expect(japan.server.acceptLanguage).toMatch(/^en-GB,en;q=0\.9,ja;q=0\.8/);
    expect(japan.client).toMatchObject({ language: 'en-GB', timezone: 'Asia/Tokyo' });
  });

  it('rejects an unknown country with the v2 message', async () => {
    await expect(fixture.fetcher.fetch({ url: url('/js/whoami'), location: { country: 'XX' } })).rejects.toMatchObject({
      code: 'SCRAPE_INVALID_REQUEST',
      message: 'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.',
    });
  });

  it('accepts self-signed certificates unless skipTlsVerification is false', async () => {
    const tls = await startSelfSignedServer();
    try {
      const ok = await fixture.fetcher.fetch({ url: `${tls.url}/`, engine: 'browser' });
      expect(ok.text).toContain('over TLS');
      await expect(
        fixture.fetcher.fetch({ url: `${tls.url}/`, engine: 'browser', skipTlsVerification: false }),
      ).rejects.toMatchObject({ code: 'SCRAPE_SSL_ERROR' });
    } finally {
      await tls.close();
    }
  });

  it('writes screenshots under browser.screenshotDir and returns the path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crawlkit-shots-'));
    const toFiles = new Fetcher({
      browser: { ...(await testBrowser()), screenshotDir: dir },
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
    const result = await fixture.fetcher.fetch({
      url: url('/js/whoami'),
      engine: 'browser',
      headers: { 'User-Agent': 'CustomAgent/1.0', 'X-Trace': 'abc' },
    });
    expect(whoami(result).server.userAgent).toBe('CustomAgent/1.0');
    const seen = fixture.server.requests.filter((r) => r.path === '/js/whoami').at(-1)!;
    expect(seen.headers['x-trace']).toBe('abc');
  });
});

describe('blockAds', () => {
  it('blocks the ad iframe and dismisses the consent banner and the cookie wall', async () => {
    const before = requestsTo('/js/ad-banner.html', 'ad.doubleclick.net');
    const result = await fixture.fetcher.fetch({ url: url('/js/consent.html'), engine: 'browser' });
    expect(requestsTo('/js/ad-banner.html', 'ad.doubleclick.net')).toBe(before);
    expect(result.blockedRequests).toBeGreaterThanOrEqual(1);
    expect(result.text).toContain('Article under a consent banner');
    expect(result.text).toContain('data-consent="rejected"'); // autoconsent pressed the CMP's own reject button
    expect(result.text).not.toContain('id="onetrust-banner-sdk"');
    expect(result.text).not.toContain('class="cookie-wall"');
    expect(result.text).not.toContain('id="ad-frame"');
  });

  it("says so when an action's selector is on the consent prompt it dismissed; blockAds: false keeps it", async () => {
    const accept = { type: 'click', selector: '#onetrust-accept-btn-handler' } as const;
    const refused = fixture.fetcher.fetch({ url: url('/js/consent.html'), engine: 'browser', actions: [accept] });
    await expect(refused).rejects.toMatchObject({ code: 'SCRAPE_ACTION_ERROR' });
    // Before: "action 0 (click ...) failed: no element matches the selector", and nothing about why.
    await expect(refused).rejects.toThrow(
      /no element matches the selector\. blockAds \(on by default\) answered the page's cookie-consent prompt .*set blockAds: false/,
    );
    const kept = await fixture.fetcher.fetch({
      url: url('/js/consent.html'),
      engine: 'browser',
      blockAds: false,
      actions: [accept],
    });
    expect(kept.text).toContain('data-consent="accepted"');
  });

  it('leaves both in place with blockAds: false', async () => {
    const before = requestsTo('/js/ad-banner.html', 'ad.doubleclick.net');
    const result = await fixture.fetcher.fetch({ url: url('/js/consent.html'), engine: 'browser', blockAds: false });
    expect(requestsTo('/js/ad-banner.html', 'ad.doubleclick.net')).toBe(before + 1);
    expect(result.text).toContain('id="onetrust-banner-sdk"');
    expect(result.text).toContain('class="cookie-wall"');
    expect(result.text).toContain('id="ad-frame"');
  });
});
