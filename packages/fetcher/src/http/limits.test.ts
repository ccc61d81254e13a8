import { createServer, type AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { failure } from './__fixtures__/http-site.ts';
import { HttpEngine } from './http-engine.js';
import { DEFAULT_HTTP_LIMITS, resolveLimits } from './limits.js';
import type { HttpEngineOptions } from './types.js';

let server: FixtureServer;
const engines: HttpEngine[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
  await server.close();
});

function engineWith(options: HttpEngineOptions = {}): HttpEngine {
  const engine = new HttpEngine(options);
  engines.push(engine);
  return engine;
}

async function stillWorks(engine: HttpEngine): Promise<void> {
  const result = await engine.fetch({ url: `${server.url}/http/json` });
  expect(result.status).toBe(200);
}

describe('limits: options', () => {
  it('fills in defaults and refuses bad values with a precise message', () => {
    expect(resolveLimits()).toEqual(DEFAULT_HTTP_LIMITS);
    expect(resolveLimits({ maxRedirects: 0, lowSpeedBytesPerSec: 0 }).maxRedirects).toBe(0);
    expect(() => new HttpEngine({ limits: { maxBodyBytes: -1 } })).toThrow(
      'Invalid options of new HttpEngine(): `limits.maxBodyBytes`: Too small: expected number to be >0, got `-1`',
    );
    expect(() => new HttpEngine({ limits: { idleTimeoutMs: 1.5 } })).toThrow(/idleTimeoutMs/);
    expect(() => new HttpEngine({ limits: { nope: 1 } as never })).toThrow('unknown option `limits.nope`');
    expect(() => new HttpEngine({ connections: 0 })).toThrow(/connections/);
  });
});

describe('limits: time', () => {
  it('drops a server that trickles one byte at a time (low-speed limit)', async () => {
    const engine = engineWith({ limits: { lowSpeedBytesPerSec: 100, lowSpeedWindowMs: 400 } });
    const started = Date.now();
    const error = await failure(engine.fetch({ url: `${server.url}/hostile/drip?interval=100` }));
    expect(error.code).toBe('SCRAPE_TIMEOUT');
    expect(error.message).toMatch(/bytes\/s/);
    expect(Date.now() - started).toBeLessThan(5000);
    await stillWorks(engine);
  });

  it('drops a stalled body (idle timeout)', async () => {
    const engine = engineWith({ limits: { idleTimeoutMs: 300, lowSpeedBytesPerSec: 0 } });
    const error = await failure(engine.fetch({ url: `${server.url}/hostile/drip?interval=2000` }));
    expect(error.code).toBe('SCRAPE_TIMEOUT');
    expect(error.message).toMatch(/stalled for 300 ms/);
  });

  it('drops a server that never completes its headers (headers timeout)', async () => {
    const engine = engineWith({ limits: { headersTimeoutMs: 400 } });
    const dripping = await failure(engine.fetch({ url: `${server.url}/hostile/drip-headers?interval=50` }));
    expect(dripping.code).toBe('SCRAPE_TIMEOUT');
    expect(dripping.message).toMatch(/no response headers within 400 ms/);
    const silent = await failure(engine.fetch({ url: `${server.url}/hostile/hang` }));
    expect(silent.code).toBe('SCRAPE_TIMEOUT');
    await stillWorks(engine);
  });

  it('stops at the whole-request budget', async () => {
    const engine = engineWith({ limits: { lowSpeedBytesPerSec: 0 } });
    const error = await failure(engine.fetch({ url: `${server.url}/hostile/drip?interval=50`, timeoutMs: 400 }));
    expect(error.code).toBe('SCRAPE_TIMEOUT');
    expect(error.message).toBe('Scrape timed out after 400 ms.');
    expect(error.url).toBe(`${server.url}/hostile/drip?interval=50`);
  });

  it('stops at the connect timeout (a TLS handshake that never completes)', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const engine = engineWith({ limits: { connectTimeoutMs: 300 } });
      const error = await failure(engine.fetch({ url: `https://127.0.0.1:${port}/` }));
      expect(error.code).toBe('SCRAPE_TIMEOUT');
      expect(error.message).toMatch(/no connection to 127.0.0.1:\d+ within 300 ms/);
    } finally {
      silent.close();
    }
  });
});

describe('limits: size', () => {
  it('refuses an endless body once past maxBodyBytes, and keeps working', async () => {
    const engine = engineWith({ limits: { maxBodyBytes: 1024 * 1024 } });
    const error = await failure(engine.fetch({ url: `${server.url}/hostile/endless` }));
    expect(error.code).toBe('SCRAPE_RESPONSE_TOO_LARGE');
    // The message names the option to raise, as the error table's action does.
    expect(error.message).toContain('exceeds the limit of 1048576 bytes (http.limits.maxBodyBytes)');
    await stillWorks(engine);
  });

  it('refuses a declared content-length over the limit before reading', async () => {
    const engine = engineWith();
    const started = Date.now();
    const error = await failure(engine.fetch({ url: `${server.url}/hostile/huge-content-length` }));
    expect(error.code).toBe('SCRAPE_RESPONSE_TOO_LARGE');
    expect(error.message).toContain('10737418240 bytes');
    expect(error.message).toContain('(http.limits.maxBodyBytes)');
    expect(Date.now() - started).toBeLessThan(5000);
    const head = await engine.fetch({ url: `${server.url}/hostile/huge-content-length`, method: 'HEAD' });
    expect(head.headers['content-length']).toBe('10737418240');
  });

  it('stops a gzip bomb by its compression ratio', async () => {
    const engine = engineWith();
    const error = await failure(engine.fetch({ url: `${server.url}/hostile/gzip-bomb` }));
    expect(error.code).toBe('SCRAPE_DECOMPRESSION_BOMB');
    await stillWorks(engine);
  });

  it('stops a brotli bomb by its compression ratio', async () => {
    const engine = engineWith();
    const error = await failure(engine.fetch({ url: `${server.url}/hostile/brotli-bomb` }));
    expect(error.code).toBe('SCRAPE_DECOMPRESSION_BOMB');
  });

  it('stops a bomb by its decompressed size when the ratio is allowed', async () => {
    const engine = engineWith({ limits: { maxCompressionRatio: 1e6, maxDecompressedBytes: 8 * 1024 * 1024 } });
    const error = await failure(engine.fetch({ url: `${server.url}/hostile/gzip-bomb` }));
    expect(error.code).toBe('SCRAPE_RESPONSE_TOO_LARGE');
    expect(error.message).toContain(
      'decompressed body exceeds the limit of 8388608 bytes (http.limits.maxDecompressedBytes)',
    );
  });

  it('reads a large but legal page, plain and gzipped', async () => {
    const engine = engineWith();
    const plain = await engine.fetch({ url: `${server.url}/http/large?mb=4` });
    expect(plain.body.byteLength).toBe(4 * 1024 * 1024);
    expect(plain.text!.length).toBe(4 * 1024 * 1024);
    const gzipped = await engine.fetch({ url: `${server.url}/http/large?mb=4&gzip` });
    expect(gzipped.body.byteLength).toBe(4 * 1024 * 1024);
    expect(gzipped.text).toBe(plain.text);
    // joined in shared memory, so that the worker thread extracting the page reads the bytes without a copy
    expect(plain.body.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(gzipped.body.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('reads at most readAtMost bytes of a body, plain (declared past maxBodyBytes), gzipped or endless', async () => {
    const engine = engineWith({ limits: { maxBodyBytes: 1024 * 1024 } });
    const whole = await engine.fetch({ url: `${server.url}/http/large?mb=1` });
    for (const path of ['/http/large?mb=4', '/http/large?mb=4&gzip']) {
      const cut = await engine.fetch({ url: `${server.url}${path}`, readAtMost: 512_000 });
      expect([cut.status, cut.truncated, cut.body.byteLength]).toEqual([200, true, 512_000]);
      expect(cut.text).toBe(whole.text!.slice(0, 512_000));
    }
    const endless = await engine.fetch({ url: `${server.url}/hostile/endless`, readAtMost: 100_000 });
    expect([endless.truncated, endless.body.byteLength]).toEqual([true, 100_000]);
    // a body no longer than the cap is whole
    const small = await engine.fetch({ url: `${server.url}/http/json`, readAtMost: 100_000 });
    expect(small.truncated).toBeUndefined();
    const refused = await failure(engine.fetch({ url: `${server.url}/http/json`, readAtMost: 0 }));
    expect([refused.code, refused.message]).toEqual([
      'SCRAPE_INVALID_REQUEST',
      'Expected `readAtMost` to be a positive whole number of bytes, got `0`.',
    ]);
    await stillWorks(engine);
  });

  it('refuses response headers over maxHeaderBytes', async () => {
    const engine = engineWith();
    const error = await failure(engine.fetch({ url: `${server.url}/hostile/big-headers` }));
    expect(error.code).toBe('SCRAPE_RESPONSE_TOO_LARGE');
    expect(error.message).toMatch(
      /^The response header block exceeds the limit of \d+ bytes \(http\.limits\.maxHeaderBytes\)\.$/,
    );
    const roomy = engineWith({ limits: { maxHeaderBytes: 256 * 1024 } });
    expect((await roomy.fetch({ url: `${server.url}/hostile/big-headers` })).text).toBe('<p>hi</p>');
  });
});

describe('content-type sniffing', () => {
  it.each([
    ['/hostile/binary-as-html', 'application/octet-stream'],
    ['/hostile/png-as-html', 'image/png'],
    ['/hostile/pdf-as-html', 'application/pdf'],
  ])('does not decode %s as HTML', async (path, sniffed) => {
    const engine = engineWith();
    const result = await engine.fetch({ url: server.url + path });
    expect(result.contentType).toBe('text/html');
    expect(result.sniffedContentType).toBe(sniffed);
    expect(result.text).toBeUndefined();
    expect(result.charset).toBeUndefined();
    expect(result.body.byteLength).toBeGreaterThan(0);
  });

  it('decodes a page with stray control characters (pasted text) as HTML', async () => {
    const result = await engineWith().fetch({ url: `${server.url}/hostile/control-bytes-in-html` });
    expect(result.sniffedContentType).toBeUndefined();
    expect(result.text).toContain('The author\u0019s draft');
  });
});
