/**
 * The network gate's own connections give up after the HTTP engine's `connectTimeoutMs`, as its connections do: a
 * host that drops SYNs (here a listener on 127.0.0.1 whose accept queue is full) is a `SCRAPE_TIMEOUT` naming that
 * limit, not a wait for the system's TCP time-out (about two minutes on Linux).
 */
import { request, type IncomingHttpHeaders } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startUnansweredPort, type UnansweredPort } from '../http/__fixtures__/unanswered-port.ts';
import { Fetcher } from '../index.js';
import { HTTP, POLICY, testBrowser } from './__fixtures__/browser-harness.ts';
import { connectVia } from './__fixtures__/via-proxy.ts';
import { NetworkGate } from './network-gate.js';

const LIMIT_MS = 400;
const GAVE_UP = `crawlkit's time-out for opening a connection (connectTimeoutMs, ${LIMIT_MS} ms) ran out on the connection to`;

let silent: UnansweredPort;
beforeAll(async () => {
  silent = await startUnansweredPort();
});
afterAll(async () => {
  await silent?.close();
});

describe('the gate gives up on a connection after connectTimeoutMs (no browser)', () => {
  let gate: NetworkGate;
  beforeAll(() => {
    gate = new NetworkGate({ policy: {}, connectTimeoutMs: LIMIT_MS });
  });
  afterAll(async () => {
    await gate?.close();
  });

  it('a plain request: answered 504, the error kept naming the limit and the target', async () => {
    const target = `http://127.0.0.1:${silent.port}/page`;
    const { status, headers } = await getVia(await gate.contextProxy(), target);
    expect(status).toBe(504);
    const error = gate.errorOf(headers as Record<string, string>);
    expect(error).toMatchObject({ code: 'SCRAPE_TIMEOUT', url: target });
    expect(error?.message).toContain(`${GAVE_UP} 127.0.0.1:${silent.port}, which was never answered`);
  });

  it('a tunnel: answered 504, the error kept for tunnelError', async () => {
    const since = Date.now();
    expect(await connectVia(await gate.contextProxy(), `127.0.0.1:${silent.port}`)).toBe(504);
    const error = gate.tunnelError(`https://127.0.0.1:${silent.port}/`, undefined, since);
    expect(error).toMatchObject({ code: 'SCRAPE_TIMEOUT' });
    expect(error?.message).toContain(`${GAVE_UP} 127.0.0.1:${silent.port}`);
  });
});

describe('the browser engine through the gate', () => {
  it("reports the gate's give-up as SCRAPE_TIMEOUT naming connectTimeoutMs, the HTTP engine's option", async () => {
    const fetcher = new Fetcher({
      browser: await testBrowser(),
      urlPolicy: POLICY,
      http: { ...HTTP, limits: { connectTimeoutMs: LIMIT_MS } },
    });
    try {
      const failure = fetcher.fetch({ url: `http://127.0.0.1:${silent.port}/`, engine: 'browser', timeoutMs: 30_000 });
      await expect(failure).rejects.toMatchObject({
        code: 'SCRAPE_TIMEOUT',
        message: expect.stringContaining(GAVE_UP),
      });
    } finally {
      await fetcher.close();
    }
  });
});

/** The status and headers a plain-HTTP request for `url` gets from the proxy at `proxyUrl` (absolute form). */
function getVia(proxyUrl: string, url: string): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: proxy.hostname, port: Number(proxy.port), path: url, agent: false }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('error', reject);
    req.end();
  });
}
