/**
 * Secrets at the public API: proxy credentials, header values and the webhook secret never reach logs, errors, events
 * or webhook payloads.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { useFixtureServer } from './helpers/fixture-engine.ts';

const fixture = useFixtureServer();

describe('secrets never reach logs, errors or webhook payloads', () => {
  const PROXY_PASSWORD = 'pr0xy-S3CRET';
  const AUTH = 'Bearer auth-S3CRET';
  const COOKIE = 'session=cookie-S3CRET';
  const WEBHOOK_SECRET = 'whsec-S3CRET';
  const SECRETS = [PROXY_PASSWORD, 'auth-S3CRET', 'cookie-S3CRET', WEBHOOK_SECRET];

  it('keeps proxy credentials, header values and the webhook secret out of everything observable', async () => {
    const captured: string[] = [];
    const writeOut = process.stdout.write.bind(process.stdout);
    const writeErr = process.stderr.write.bind(process.stderr);
    const capture =
      (write: typeof writeOut) =>
      (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
        captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
        return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
      };
    const received: string[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(body, JSON.stringify(req.headers));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    process.stdout.write = capture(writeOut);
    process.stderr.write = capture(writeErr);
    const ck = new Crawlkit({
      store: 'memory',
      engine: 'http',
      timeoutMs: 3000,
      // An unreachable proxy: every proxied request fails, and its error must not carry the password.
      proxies: { basic: [`http://user:${PROXY_PASSWORD}@127.0.0.1:1`], proxyLoopback: true },
      webhooks: { secret: WEBHOOK_SECRET, timeoutMs: 2000 },
    });
    ck.on('error', (e) => captured.push(JSON.stringify(e)));
    ck.on('page', (e) => captured.push(JSON.stringify(e)));
    const headers = { Authorization: AUTH, Cookie: COOKIE };
    try {
      captured.push(
        JSON.stringify(
          await ck.scrape({ url: `${fixture.server.url}/articles/first-post.html`, headers, proxy: 'basic' }),
        ),
        JSON.stringify(await ck.scrape({ url: `${fixture.server.url}/hostile/reset`, headers })),
        JSON.stringify(await ck.scrape({ url: `${fixture.server.url}/hostile/drip?ms=5000`, headers, timeout: 1000 })),
        JSON.stringify(await ck.scrape({ url: `http://user:${PROXY_PASSWORD}@127.0.0.1:1/`, headers })),
      );
      const batch = await ck.batchScrape({
        urls: [`${fixture.server.url}/articles/first-post.html`, `${fixture.server.url}/hostile/reset`],
        headers,
        webhook: { url: hook, headers: { 'x-note': 'plain' }, metadata: { run: 'one' } },
      });
      if (!batch.success) throw new Error(batch.error);
      captured.push(JSON.stringify(await ck.waitForJob(batch.id)));
      captured.push(JSON.stringify(await ck.getBatchScrapeErrors(batch.id)));
      // The completion event is delivered in the background: wait for it.
      for (let i = 0; i < 100 && !received.some((b) => b.includes('batch_scrape.completed')); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      process.stdout.write = writeOut;
      process.stderr.write = writeErr;
      await ck.close();
      await new Promise<void>((r) => receiver.close(() => r()));
    }

    expect(received.some((b) => b.includes('batch_scrape.completed'))).toBe(true);
    // The proxied scrape did fail, so its error message was checked, not skipped.
    expect(captured[0]).toContain('"success":false');
    const everything = [...captured, ...received].join('\n');
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  }, 60_000);
});
