/**
 * DNS rebinding against a keyless `crawlkit serve` (security review, qa51e): a web page whose name is rebound to
 * 127.0.0.1 makes same-origin GETs, which carry no `Origin` (so the CORS rule never sees them) but do carry the page's
 * own name as `Host`. A keyless server answers loopback names only; a server with keys answers any name (the page has
 * no key).
 */
import { request } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startServeStack, type ServeStack } from './helpers/serve.ts';

let keyless: ServeStack;
let keyed: ServeStack;

beforeAll(async () => {
  keyless = await startServeStack({ server: { publicUrl: 'https://crawl.internal.example/' } });
  keyed = await startServeStack({ server: { apiKeys: ['fc-host-check-0123456789'] } });
});

afterAll(async () => {
  await keyless?.close();
  await keyed?.close();
});

/** A GET of `path` on `base` with this `Host` header (which `fetch` does not let a caller set). */
function getWithHost(
  base: string,
  path: string,
  host: string,
  key?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host, ...(key ? { authorization: `Bearer ${key}` } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('a keyless server and the Host header', () => {
  it('refuses a rebound name before anything runs, saying what to use instead', async () => {
    const port = new URL(keyless.server.url).port;
    for (const host of [
      `attacker.example:${port}`,
      `127.0.0.1.attacker.example:${port}`,
      'localhost.attacker.example',
    ]) {
      const answer = await getWithHost(keyless.server.url, '/v2/crawl/active', host);
      expect(answer.status, host).toBe(403);
      expect(answer.body).toMatchObject({ success: false, code: 'ORIGIN_NOT_ALLOWED' });
      expect(answer.body.error).toContain('DNS rebinding');
      expect(answer.body.error).toContain('127.0.0.1');
    }
  });

  it('answers loopback names and the public URL host', async () => {
    const port = new URL(keyless.server.url).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
      'crawl.internal.example',
    ]) {
      const answer = await getWithHost(keyless.server.url, '/v2/crawl/active', host);
      expect(answer.status, host).toBe(200);
    }
  });

  it('answers any name on a server with keys (a rebinding page has no key)', async () => {
    const answer = await getWithHost(
      keyed.server.url,
      '/v2/crawl/active',
      'attacker.example',
      'fc-host-check-0123456789',
    );
    expect(answer.status).toBe(200);
  });
});
