/**
 * `close()` and the webhook deliveries under way: an attempt a receiver never answers stops at `closeTimeoutMs`
 * (before: `close()` waited for its `timeoutMs`, 10 s, vitest's hook timeout) and counts as none, so the next engine on
 * the store sends the event; what a memory store still holds at close is told, not dropped without a word.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createSqliteStore } from '@crawlkit/store';
import { Crawlkit, type WebhookPayload } from 'crawlkit';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, until } from './helpers-batch.ts';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

/** A receiver that leaves every request unanswered while `answer` is unset, then answers it; counts both. */
async function receiver() {
  const hung: ServerResponse[] = [];
  const seen = { requests: [] as string[], answered: [] as WebhookPayload[], answer: undefined as number | undefined };
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      seen.requests.push(String(req.headers['x-crawlkit-delivery']));
      if (seen.answer === undefined) return void hung.push(res);
      if (seen.answer < 300) seen.answered.push(JSON.parse(raw) as WebhookPayload);
      res.writeHead(seen.answer).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    seen,
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`,
    close: () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

it('stops an attempt that is never answered at closeTimeoutMs; the event stays due and the next engine sends it', async () => {
  const storeDir = mkdtempSync(join(tmpdir(), 'ck-webhooks-close-'));
  const hook = await receiver();
  try {
    // The defaults: 10 s an attempt, 2 s for close().
    const first = new Crawlkit({ storeDir, engine: 'http' });
    const job = ok(await first.batchScrape({ urls: [`${server.url}/`], webhook: hook.url }));
    ok(await first.waitForJob(job.id));
    await until(() => hook.seen.requests.length === 1);
    const started = performance.now();
    await first.close();
    // Before: 10 s, the attempt's timeoutMs.
    expect(performance.now() - started).toBeLessThan(6_000);

    // The stopped attempt counts as none: the events are pending, due, never attempted.
    const store = await createSqliteStore({ dir: storeDir });
    try {
      const pending = await store.deliveries.pending(job.id);
      expect(pending.map((d) => d.attempts)).toEqual([0, 0, 0]);
      expect(pending[0]!.id).toBe(hook.seen.requests[0]);
      expect(pending[0]!.nextAttemptAt).toBeLessThanOrEqual(Date.now());
    } finally {
      await store.close();
    }

    hook.seen.answer = 200;
    const second = new Crawlkit({ storeDir, engine: 'http' });
    try {
      // Its first call of any method starts the dispatcher, which sends what the first engine left.
      second.getCreditUsage();
      await until(() => hook.seen.answered.length === 3);
      expect(hook.seen.answered.map((p) => p.type)).toEqual([
        'batch_scrape.started',
        'batch_scrape.page',
        'batch_scrape.completed',
      ]);
      // The stopped event once more, with its delivery id; none sent twice after.
      expect(hook.seen.requests).toHaveLength(4);
      expect(hook.seen.requests[1]).toBe(hook.seen.requests[0]);
    } finally {
      await second.close();
    }
  } finally {
    await hook.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
}, 40_000);

it('tells the events a memory store still holds at close(), how many and whose, as they are lost with it', async () => {
  const hook = await receiver();
  hook.seen.answer = 503;
  const warned: { code: string; message: string }[] = [];
  const logged: string[] = [];
  const logger = { debug() {}, info() {}, warn: (message: string) => void logged.push(message), error() {} };
  const ck = new Crawlkit({ store: 'memory', engine: 'http', logger, webhooks: { retryDelayMs: 60_000 } });
  ck.on('warning', (warning) => warned.push(warning));
  try {
    const job = ok(await ck.batchScrape({ urls: [`${server.url}/`], webhook: hook.url }));
    ok(await ck.waitForJob(job.id));
    // The first event failed once and waits a minute for its retry; the page and completed wait behind it.
    await until(() => hook.seen.requests.length === 1);
    await ck.close();
    // Before: nothing said; the three events were gone with the engine.
    const dropped = warned.filter((w) => w.code === 'WEBHOOK_EVENTS_DROPPED');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.message).toContain('3 webhook events were not delivered before close() (1 waiting for a retry)');
    expect(dropped[0]!.message).toContain(`of job ${job.id}:`);
    expect(logged).toContain(`[engine] ${dropped[0]!.message}`);
  } finally {
    await ck.close();
    await hook.close();
  }
});

it('tells the events a store on disk still holds at close() for a failing receiver, and that the next engine sends them', async () => {
  const storeDir = mkdtempSync(join(tmpdir(), 'ck-webhooks-left-'));
  const hook = await receiver();
  try {
    hook.seen.answer = 500;
    const warned: { code: string; message: string }[] = [];
    const first = new Crawlkit({ storeDir, engine: 'http', webhooks: { retryDelayMs: 3_000 } });
    first.on('warning', (warning) => warned.push(warning));
    const job = ok(await first.batchScrape({ urls: [`${server.url}/`], webhook: hook.url }));
    ok(await first.waitForJob(job.id));
    await until(() => hook.seen.requests.length === 1);
    await first.close();
    // Before: nothing said (a `crawlkit batch --webhook` whose receiver answered 500 exited without a word).
    const left = warned.filter((w) => w.code === 'WEBHOOK_EVENTS_LEFT');
    expect(left).toHaveLength(1);
    expect(left[0]!.message).toContain('3 webhook events were not delivered before close() (1 waiting for a retry');
    expect(left[0]!.message).toContain('HTTP 500');
    expect(left[0]!.message).toContain(`of job ${job.id}. They stay in the store`);
    expect(warned.filter((w) => w.code === 'WEBHOOK_EVENTS_DROPPED')).toEqual([]);

    // The next engine sends them once the retry is due; once all are delivered its close() has nothing to tell.
    hook.seen.answer = 200;
    const warnedNext: string[] = [];
    const second = new Crawlkit({ storeDir, engine: 'http' });
    second.on('warning', (warning) => warnedNext.push(warning.code));
    second.getCreditUsage();
    await until(() => hook.seen.answered.length === 3);
    await second.close();
    expect(warnedNext).toEqual([]);
  } finally {
    await hook.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
}, 40_000);
