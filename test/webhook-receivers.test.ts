/**
 * Webhook receivers that answer something other than a plain 2xx or 5xx: a redirect, a 429 or 503 with Retry-After.
 * Real receivers on 127.0.0.1; what they were sent, and what the job's errors say, are checked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { Crawlkit, type BatchScrapeResponse, type CrawlErrorsResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, until } from './helpers-batch.ts';

interface Seen {
  method: string;
  body: string;
  at: number;
}

/** A receiver answering each request with `answer`, recording the method and body of each. */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse, index: number) => void) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      answer(req, res, seen.length - 1);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let site: FixtureServer;
let ck: Crawlkit;

beforeAll(async () => {
  site = await startFixtureServer();
  ck = new Crawlkit({
    store: 'memory',
    engine: 'http',
    webhooks: { timeoutMs: 2000, retryDelayMs: 50, maxAttempts: 3 },
  });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

async function errorsOf(id: string): Promise<CrawlErrorsResponse['errors']> {
  const response = await ck.getBatchScrapeErrors(id);
  if ('success' in response) throw new Error(response.error);
  return response.errors;
}

describe('a receiver that answers a redirect', () => {
  it.each([301, 302, 303, 307, 308])(
    'HTTP %i: the event is not sent on to the new address, and is given up saying where the webhook points',
    async (status) => {
      const moved = await receiver((_req, res) => void res.writeHead(204).end());
      const old = await receiver((_req, res) => void res.writeHead(status, { location: moved.url }).end());
      try {
        const started = ok<BatchScrapeResponse>(
          await ck.batchScrape({ urls: [`${site.url}/listing.html`], webhook: { url: old.url, events: ['started'] } }),
        );
        await until(async () => moved.seen.length > 0 || (await errorsOf(started.id)).length === 1);
        // Before, 301/302/303 were followed as a GET without the event (and counted delivered, with no error).
        expect(moved.seen).toEqual([]);
        expect(old.seen.map((s) => s.method)).toEqual(['POST']);
        const [error] = await errorsOf(started.id);
        expect(error!.code).toBe('WEBHOOK_DELIVERY_FAILED');
        expect(error!.error).toContain(
          `after 1 attempt: the webhook answered HTTP ${status} redirecting to ${moved.url}`,
        );
        expect(error!.error).toContain('set webhook.url to the address it redirects to');
      } finally {
        await old.close();
        await moved.close();
      }
    },
  );
});

describe('a receiver that asks for rest', () => {
  it.each([429, 503])('HTTP %i with Retry-After: the next attempt waits that long, then delivers', async (status) => {
    const busy = await receiver((_req, res, index) => {
      if (index === 0) res.writeHead(status, { 'retry-after': '1' }).end();
      else res.writeHead(204).end();
    });
    try {
      const started = ok<BatchScrapeResponse>(
        await ck.batchScrape({ urls: [`${site.url}/listing.html`], webhook: { url: busy.url, events: ['started'] } }),
      );
      await until(() => busy.seen.length === 2);
      // Before, the back-off alone (50 ms here) set the retry: a receiver shedding load was called again at once.
      expect(busy.seen[1]!.at - busy.seen[0]!.at).toBeGreaterThanOrEqual(950);
      expect(await errorsOf(started.id)).toEqual([]);
    } finally {
      await busy.close();
    }
  });

  it('a Retry-After past maxRetryDelayMs waits maxRetryDelayMs', async () => {
    const capped = new Crawlkit({
      store: 'memory',
      engine: 'http',
      webhooks: { retryDelayMs: 50, maxRetryDelayMs: 200, maxAttempts: 3 },
    });
    const busy = await receiver((_req, res, index) => {
      if (index === 0) res.writeHead(429, { 'retry-after': '3600' }).end();
      else res.writeHead(204).end();
    });
    try {
      ok<BatchScrapeResponse>(
        await capped.batchScrape({
          urls: [`${site.url}/listing.html`],
          webhook: { url: busy.url, events: ['started'] },
        }),
      );
      await until(() => busy.seen.length === 2, 5000);
    } finally {
      await capped.close();
      await busy.close();
    }
  });
});

describe('an event given up', () => {
  it('is told as an engine warning (a line on the output of serve), once a minute per job at most', async () => {
    const warnings: { code: string; message: string }[] = [];
    const onWarning = (warning: { code: string; message: string }) => void warnings.push(warning);
    ck.on('warning', onWarning);
    const refusing = await receiver((_req, res) => void res.writeHead(401).end());
    try {
      const urls = [1, 2, 3].map((n) => `${site.url}/listing.html?give-up=${n}`);
      const started = ok<BatchScrapeResponse>(await ck.batchScrape({ urls, webhook: refusing.url }));
      await until(async () => (await errorsOf(started.id)).length === 5);
      // Before, the job's errors were the only trace: a receiver that takes only webhooks never reads them.
      expect(warnings.filter((w) => w.code === 'WEBHOOK_DELIVERY_FAILED')).toEqual([
        {
          code: 'WEBHOOK_DELIVERY_FAILED',
          message:
            `Job ${started.id}: Webhook event batch_scrape.started was not delivered after 1 attempt: the webhook ` +
            "answered HTTP 401 (each is in the job's errors, code WEBHOOK_DELIVERY_FAILED)",
        },
      ]);
    } finally {
      ck.off('warning', onWarning);
      await refusing.close();
    }
  });
});

describe('the last event of a job', () => {
  it('is failed, with the error, for a job that fails (its store budget spent)', async () => {
    const small = new Crawlkit({ store: 'memory', engine: 'http', jobs: { maxStoreBytes: 1_000 } });
    const hook = await receiver((_req, res) => void res.writeHead(204).end());
    try {
      const urls = [1, 2, 3, 4].map((n) => `${site.url}/listing.html?budget=${n}`);
      const failed = ok<BatchScrapeResponse>(await small.batchScrape({ urls, webhook: hook.url }));
      await small.waitForJob(failed.id);
      await until(() => hook.seen.some((s) => s.body.includes('batch_scrape.failed')));
      const last = JSON.parse(hook.seen.at(-1)!.body) as { type: string; success: boolean; error: string };
      expect(last).toMatchObject({ type: 'batch_scrape.failed', success: false });
      expect(last.error).toContain('jobs.maxStoreBytes');
      expect(hook.seen.filter((s) => s.body.includes('batch_scrape.completed'))).toEqual([]);
    } finally {
      await small.close();
      await hook.close();
    }
  });
});

describe('a receiver down, then back', () => {
  it("gets the job's events within maxRetryDelayMs of its return, in order", async () => {
    const cap = 200;
    const engine = new Crawlkit({
      store: 'memory',
      engine: 'http',
      webhooks: { timeoutMs: 2000, retryDelayMs: 10, maxRetryDelayMs: cap, maxAttempts: 1_000 },
    });
    let backAt: number | undefined;
    /** The first delivery answered 204: by the answer, not by time (one answered 503 in backAt's millisecond). */
    let firstOk: number | undefined;
    const down = await receiver((_req, res, index) => {
      if (backAt !== undefined) firstOk ??= index;
      res.writeHead(backAt === undefined ? 503 : 204).end();
    });
    try {
      const started = ok<BatchScrapeResponse>(
        await engine.batchScrape({ urls: [`${site.url}/listing.html`], webhook: { url: down.url } }),
      );
      await engine.waitForJob(started.id);
      // Down until the back-off has reached its cap (two attempts a cap apart), then back.
      await until(() => {
        const n = down.seen.length;
        return n >= 2 && down.seen[n - 1]!.at - down.seen[n - 2]!.at >= cap - 20;
      }, 10_000);
      backAt = Date.now();
      await until(() => firstOk !== undefined && down.seen.length - firstOk >= 3, 10_000);
      const after = down.seen.slice(firstOk);
      // The next attempt comes within the cap (plus this machine's scheduling), not after a doubled back-off.
      expect(after[0]!.at - backAt).toBeLessThan(cap + 1_000);
      const types = after.map((s) => (JSON.parse(s.body) as { type: string }).type);
      expect(types).toEqual(['batch_scrape.started', 'batch_scrape.page', 'batch_scrape.completed']);
      expect(await engine.getBatchScrapeErrors(started.id)).toMatchObject({ errors: [] });
    } finally {
      await engine.close();
      await down.close();
    }
  });
});
