/**
 * A receiver that does not answer within `webhooks.timeoutMs`: the job's error and the give-up warning say so as the
 * webhook's time-out, naming the option (before: "Scrape timed out after 10000 ms.", the page fetcher's words, which
 * sent a reader of the job's errors looking at the scrape).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, until } from './helpers-batch.ts';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

it("says a receiver's time-out as the webhook's, with the option that sets it", async () => {
  const hung: ServerResponse[] = [];
  const hook = createServer((req, res) => void req.resume().on('end', () => hung.push(res)));
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  const warned: string[] = [];
  const ck = new Crawlkit({ store: 'memory', engine: 'http', webhooks: { timeoutMs: 300, maxAttempts: 1 } });
  ck.on('warning', (warning) => void warned.push(warning.message));
  try {
    const job = ok(await ck.batchScrape({ urls: [`${server.url}/`], webhook: { url, events: ['completed'] } }));
    ok(await ck.waitForJob(job.id));
    let errors: { code?: string; error: string }[] = [];
    await until(async () => {
      const answer = await ck.getBatchScrapeErrors(job.id);
      if (!('errors' in answer)) throw new Error(answer.error);
      errors = answer.errors.filter((e) => e.code === 'WEBHOOK_DELIVERY_FAILED');
      return errors.length === 1;
    });
    expect(errors[0]!.error).toBe(
      'Webhook event batch_scrape.completed was not delivered after 1 attempt: the webhook did not answer within ' +
        '300 ms (webhooks.timeoutMs): answer 2xx at once and do the work after',
    );
    expect(warned.some((message) => message.includes('did not answer within 300 ms'))).toBe(true);
    expect(warned.join('\n')).not.toContain('Scrape timed out');
  } finally {
    await ck.close();
    hook.closeAllConnections();
    await new Promise<void>((resolve) => hook.close(() => resolve()));
  }
});
