/**
 * The browser engine's network gate (proxy-chain) answers a failed connection with a status of its own: 593, 594 and
 * 504 were said in words already; a reset (595) was "Could not connect to <url> (595).", the number alone (security
 * day's Left, qa52b). On real Chromium, a server that accepts the connection and drops it before answering: the
 * browser now says it as the HTTP engine says a reset, naming the host and the error code, and the answer is marked
 * dropped (a crawl or batch fetches the page again) as the HTTP engine's is.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit, type ErrorResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { ISOLATED_ARGS } from './helpers/scrape.ts';

let site: Server;
let resetUrl = '';

beforeAll(async () => {
  // Reads the request, then resets the connection without an answer.
  site = createServer((req) => req.socket.resetAndDestroy());
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', () => resolve()));
  resetUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/reset`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => site?.close(() => resolve()));
});

const env = useFixtureEngine({
  crawlkit: { store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS }, timeoutMs: 20_000 },
});

describe("the browser gate's statuses", () => {
  it('says a reset connection in words, as the HTTP engine says it, not as status 595', async () => {
    const response = (await env.ck.scrape({ url: resetUrl, maxAge: 0 })) as ErrorResponse;
    expect(response.success, JSON.stringify(response).slice(0, 500)).toBe(false);
    expect(response.code).toBe('SCRAPE_CONNECTION_ERROR');
    const host = new URL(resetUrl).host;
    expect(response.error).toBe(`Connection to ${host} reset (ECONNRESET).`);
    const http = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const direct = (await http.scrape({ url: resetUrl, maxAge: 0 })) as ErrorResponse;
      expect(direct.error).toMatch(new RegExp(`^Connection to ${host} reset `));
    } finally {
      await http.close();
    }
  }, 30_000);
});
