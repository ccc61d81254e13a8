import zlib from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { startFixtureServer } from '../../../../fixtures/server.ts';
import { failure, useHttpSite } from './__fixtures__/http-site.ts';
import { decodeText } from './charset.js';
import { HttpEngine } from './http-engine.js';

const site = useHttpSite();

describe('HttpEngine: GET', () => {
  it('fetches a static page with status, headers, type, charset, text and timings', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/articles/first-post.html` });
    expect(result.status).toBe(200);
    expect(result.url).toBe(`${site.server.url}/articles/first-post.html`);
    expect(result.contentType).toBe('text/html');
    expect(result.charset).toBe('utf-8');
    expect(result.engine).toBe('http');
    expect(result.redirects).toEqual([]);
    expect(result.text).toContain('<html');
    expect(result.body.byteLength).toBeGreaterThan(100);
    expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(result.timings!.totalMs).toBeGreaterThanOrEqual(result.timings!.ttfbMs);
  });

  it('tells onRequestStart once, right before the first request leaves (not per redirect hop)', async () => {
    let calls = 0;
    let requestsWhenCalled = -1;
    const result = await site.engine.fetch({
      url: `${site.server.url}/http/redirect/hops/2`,
      onRequestStart: () => {
        calls++;
        requestsWhenCalled = site.server.requests.length;
      },
    });
    expect(result.redirects).toHaveLength(2);
    expect(calls).toBe(1);
    // Called before the server saw anything of this fetch.
    expect(site.server.requests.length - requestsWhenCalled).toBe(3);
  });

  it('returns a 404 or 500 page as a result, not an error', async () => {
    const notFound = await site.engine.fetch({ url: `${site.server.url}/nope.html` });
    expect(notFound.status).toBe(404);
    expect(notFound.text).toContain('<');
    const broken = await site.engine.fetch({ url: `${site.server.url}/http/status/503` });
    expect(broken.status).toBe(503);
    expect(broken.text).toBe('<h1>Status 503</h1>');
  });

  it('sends a User-Agent naming crawlkit and lets request headers override the defaults', async () => {
    const echo = JSON.parse((await site.engine.fetch({ url: `${site.server.url}/http/echo` })).text!);
    expect(echo.headers['user-agent']).toMatch(/crawlkit/);
    expect(echo.headers['accept-encoding']).toMatch(/gzip/);
    const custom = JSON.parse(
      (
        await site.engine.fetch({
          url: `${site.server.url}/http/echo`,
          headers: { 'User-Agent': 'custom/1', Cookie: 'a=b' },
        })
      ).text!,
    );
    expect(custom.headers['user-agent']).toBe('custom/1');
    expect(custom.headers.cookie).toBe('a=b');
  });

  it('takes the user agent from the engine options', async () => {
    const own = new HttpEngine({ userAgent: 'my-bot/2.0' });
    try {
      const echo = JSON.parse((await own.fetch({ url: `${site.server.url}/http/echo` })).text!);
      expect(echo.headers['user-agent']).toBe('my-bot/2.0');
    } finally {
      await own.close();
    }
  });

  it('turns URL credentials into a Basic authorization and keeps them out of the result', async () => {
    const url = site.server.url.replace('http://', 'http://user:p%40ss@') + '/http/echo';
    const result = await site.engine.fetch({ url });
    const echo = JSON.parse(result.text!);
    expect(echo.headers.authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
    expect(result.url).toBe(`${site.server.url}/http/echo`);
  });

  it('posts a body (webhook delivery)', async () => {
    const result = await site.engine.fetch({
      url: `${site.server.url}/http/echo`,
      method: 'POST',
      body: '{"ok":true}',
      headers: { 'content-type': 'application/json' },
    });
    const echo = JSON.parse(result.text!);
    expect(echo.method).toBe('POST');
    expect(echo.body).toBe('{"ok":true}');
    expect(echo.headers['content-type']).toBe('application/json');
  });

  it('does a HEAD without a body', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/articles/first-post.html`, method: 'HEAD' });
    expect(result.status).toBe(200);
    expect(result.body.byteLength).toBe(0);
    expect(result.contentType).toBe('text/html');
    expect(result.text).toBe('');
  });

  it('joins repeated headers, set-cookie with newlines', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/headers/repeated` });
    expect(result.headers['x-multi']).toBe('one, two');
    expect(result.headers['set-cookie']).toBe('a=1; Path=/\nb=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT');
  });

  it('keeps binary content as bytes without text', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/image` });
    expect(result.contentType).toBe('image/png');
    expect(result.text).toBeUndefined();
    expect(result.body[0]).toBe(0x89);
  });

  it('decodes JSON and text/plain', async () => {
    const json = await site.engine.fetch({ url: `${site.server.url}/http/json` });
    expect(JSON.parse(json.text!)).toEqual({ name: 'café', items: [1, 2, 3] });
    const text = await site.engine.fetch({ url: `${site.server.url}/plain.txt` });
    expect(text.contentType).toBe('text/plain');
    expect(text.text).toBe('Just plain text.\nSecond line.\n');
  });

  it('sniffs a response without content-type as text', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/no-content-type` });
    expect(result.contentType).toBe('');
    expect(result.text).toContain('No content type at all');
  });
});

describe('HttpEngine: charsets', () => {
  const cafe = 'Crème brûlée';
  it.each([
    ['/http/latin1', 'windows-1252'],
    ['/http/latin1-meta', 'windows-1252'],
    ['/http/latin1-http-equiv', 'windows-1252'],
  ])('decodes a Latin-1 page declared by %s', async (path, charset) => {
    const result = await site.engine.fetch({ url: site.server.url + path });
    expect(result.charset).toBe(charset);
    expect(result.text).toContain(cafe);
    expect(result.text).toContain('Über Straße und Größe: ¡olé!');
  });

  it.each(['/http/latin1', '/http/latin1-meta', '/http/shift-jis-meta'])(
    'leaves the body as bytes with deferDecoding (%s), and decodeText makes the same text of them',
    async (path) => {
      const eager = await site.engine.fetch({ url: site.server.url + path });
      const deferred = await site.engine.fetch({ url: site.server.url + path, deferDecoding: true });
      expect(deferred.text).toBeUndefined();
      expect(deferred.undecodedText).toEqual(path === '/http/latin1' ? { declaredCharset: 'iso-8859-1' } : {});
      const { declaredCharset } = deferred.undecodedText!;
      expect(decodeText(deferred.body, deferred.contentType, declaredCharset)).toEqual({
        text: eager.text,
        charset: eager.charset,
      });
    },
  );

  it('guesses Latin-1 when nothing declares it', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/latin1-undeclared` });
    expect(result.text).toContain(cafe);
    expect(['windows-1252', 'iso-8859-1', 'iso-8859-15']).toContain(result.charset);
  });

  it.each(['/http/shift-jis', '/http/shift-jis-meta', '/http/shift-jis-undeclared'])(
    'decodes a Shift_JIS page (%s)',
    async (path) => {
      const result = await site.engine.fetch({ url: site.server.url + path });
      expect(result.charset).toBe('shift_jis');
      expect(result.text).toContain('<title>日本語のページ</title>');
      expect(result.text).toContain('東京都渋谷区の天気は晴れ');
    },
  );

  it('reads valid non-ASCII UTF-8 labelled Latin-1 as UTF-8 (the usual server default mislabel)', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/utf8-labelled-latin1` });
    expect(result.charset).toBe('utf-8');
    expect(result.text).toContain('café, 日本語');
  });

  it('lets a UTF-8 BOM win over a wrong header charset, and strips it', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/bom-utf8` });
    expect(result.charset).toBe('utf-8');
    expect(result.text!.startsWith('<html>')).toBe(true);
    expect(result.text).toContain('日本語, café');
  });

  it('decodes UTF-16 with a BOM and does not take its NUL bytes for binary', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/bom-utf16le` });
    expect(result.charset).toBe('utf-16le');
    expect(result.sniffedContentType).toBeUndefined();
    expect(result.text).toContain('UTF-16 page: café, 日本語');
  });

  it('reads the encoding of an XML declaration', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/xml-latin1` });
    expect(result.charset).toBe('windows-1252');
    expect(result.text).toContain('<title>Café crème brûlée à la française');
  });
});

describe('HttpEngine: compression', () => {
  const zstd = typeof (zlib as { zstdCompressSync?: unknown }).zstdCompressSync === 'function';
  it.each([
    '/http/gzip',
    '/http/deflate',
    '/http/deflate-raw',
    '/http/brotli',
    '/http/gzip-then-br',
    ...(zstd ? ['/http/zstd'] : []),
  ])('decodes %s', async (path) => {
    const result = await site.engine.fetch({ url: site.server.url + path });
    expect(result.status).toBe(200);
    expect(result.text).toContain('<h1>Compressed page</h1>');
    expect(result.text).toContain('naïve café, 日本語.</p></body></html>');
  });

  it('tolerates a truncated gzip stream as browsers do', async () => {
    const result = await site.engine.fetch({ url: `${site.server.url}/http/gzip-truncated` });
    expect(result.text).toContain('<h1>Compressed page</h1>');
  });

  it('fails on data that is not what its content-encoding says', async () => {
    const error = await failure(site.engine.fetch({ url: `${site.server.url}/hostile/corrupt-gzip` }));
    expect(error.code).toBe('SCRAPE_DECODING_ERROR');
  });
});

describe('HttpEngine: failures', () => {
  it('gives SCRAPE_DNS_RESOLUTION_ERROR for a name that does not exist, quickly', async () => {
    const started = Date.now();
    const error = await failure(site.engine.fetch({ url: 'http://does-not-exist.invalid/' }));
    expect(error.code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
    expect(error.message).toBe(
      'DNS resolution failed for hostname: does-not-exist.invalid. Please check if the domain is valid and accessible.',
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives SCRAPE_DNS_RESOLUTION_ERROR when a custom lookup fails', async () => {
    const own = new HttpEngine({
      lookup: (hostname, _options, callback) => {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = 'ENOTFOUND';
        callback(error, '');
      },
    });
    try {
      const error = await failure(own.fetch({ url: 'http://nowhere.test/' }));
      expect(error.code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
      expect(error.message).toContain('nowhere.test');
    } finally {
      await own.close();
    }
  });

  it('gives SCRAPE_CONNECTION_ERROR for a closed port', async () => {
    const closed = await startFixtureServer();
    const url = closed.url;
    await closed.close();
    const error = await failure(site.engine.fetch({ url: `${url}/` }));
    expect(error.code).toBe('SCRAPE_CONNECTION_ERROR');
    expect(error.message).toMatch(/refused/);
    // Nothing listens there: no connection was dropped, and a job does not fetch it again.
    expect(error.dropped).toBeUndefined();
  });

  it('gives SCRAPE_CONNECTION_ERROR, marked dropped, when the server closes without answering or mid-body', async () => {
    for (const path of ['/hostile/reset', '/hostile/short-body']) {
      const error = await failure(site.engine.fetch({ url: `${site.server.url}${path}` }));
      expect(error.code).toBe('SCRAPE_CONNECTION_ERROR');
      expect(error.dropped).toBe(true);
      expect(error.message).toMatch(
        /^Connection to 127\.0\.0\.1:\d+ (reset|closed by the server before a complete response) \(/,
      );
    }
  });

  it('gives SCRAPE_INVALID_RESPONSE for a server that does not speak HTTP', async () => {
    const error = await failure(site.engine.fetch({ url: `${site.server.url}/hostile/garbage` }));
    expect(error.code).toBe('SCRAPE_INVALID_RESPONSE');
  });

  it('refuses non-web schemes and unparseable URLs', async () => {
    for (const url of ['file:///etc/passwd', 'data:text/html,<p>x</p>', 'javascript:alert(1)', 'ftp://example.com/']) {
      expect((await failure(site.engine.fetch({ url }))).code, url).toBe('SCRAPE_UNSUPPORTED_PROTOCOL');
    }
    expect((await failure(site.engine.fetch({ url: 'not a url' }))).code).toBe('SCRAPE_INVALID_URL');
  });

  it('aborts with the signal', async () => {
    const controller = new AbortController();
    const pending = site.engine.fetch({ url: `${site.server.url}/hostile/hang`, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await failure(pending);
    expect(error.code).toBe('ABORTED');
    expect(error.url).toBe(`${site.server.url}/hostile/hang`);
    const already = await failure(site.engine.fetch({ url: `${site.server.url}/`, signal: AbortSignal.abort() }));
    expect(already.code).toBe('ABORTED');
  });

  it('reports a timeout signal as SCRAPE_TIMEOUT', async () => {
    const error = await failure(
      site.engine.fetch({ url: `${site.server.url}/hostile/hang`, signal: AbortSignal.timeout(50) }),
    );
    expect(error.code).toBe('SCRAPE_TIMEOUT');
  });

  it('refuses an invalid timeout', async () => {
    for (const timeoutMs of [0, -1, Number.NaN, 2 ** 40]) {
      expect((await failure(site.engine.fetch({ url: `${site.server.url}/`, timeoutMs }))).code).toBe(
        'SCRAPE_INVALID_REQUEST',
      );
    }
  });

  it('refuses to fetch after close', async () => {
    const own = new HttpEngine();
    await own.close();
    expect((await failure(own.fetch({ url: `${site.server.url}/` }))).code).toBe('FETCHER_CLOSED');
  });
});
