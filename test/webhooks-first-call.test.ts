/**
 * The first call of any method opens the store, and with it sends the webhook events an earlier process left pending:
 * the synchronous usage methods (`getCreditUsage`, `getTokenUsage`, `getQueueStatus`, `getConcurrency`) too, which
 * read nothing of the store. A real receiver on 127.0.0.1, down while the first engine runs, up for the second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type BatchScrapeResponse, type JobStatusResponse } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { useFixtureServer } from './helpers/fixture-engine.ts';
import { freePort, ok, startReceiver, until, type Receiver } from './helpers-batch.ts';

const site = useFixtureServer();

// An attempt 30 s: a timed-out one is sent again (at least once), and the events are counted exactly.
const webhooks = { retryDelayMs: 30, maxRetryDelayMs: 100, maxAttempts: 1000, timeoutMs: 30_000 };
const methods = ['getCreditUsage', 'getTokenUsage', 'getQueueStatus', 'getConcurrency'] as const;

describe('webhook events left pending by an earlier process', () => {
  it.each(methods)(
    'are sent once a new engine on the store is called %s()',
    async (method) => {
      const storeDir = mkdtempSync(join(tmpdir(), 'ck-webhooks-first-call-'));
      const port = await freePort();
      let receiver: Receiver | undefined;
      let second: Crawlkit | undefined;
      try {
        // The receiver is down: the batch's events stay pending in the store when the first engine closes.
        const first = new Crawlkit({ storeDir, engine: 'http', webhooks });
        const started = ok<BatchScrapeResponse>(
          await first.batchScrape({
            urls: [`${site.server.url}/articles/first-post.html`],
            webhook: `http://127.0.0.1:${port}/`,
          }),
        );
        expect(ok<JobStatusResponse>(await first.waitForJob(started.id)).status).toBe('completed');
        await first.close();

        receiver = await startReceiver({ port });
        second = new Crawlkit({ storeDir, engine: 'http', webhooks });
        second[method]();
        await until(() => receiver!.events.length === 3, 10_000);
        expect(receiver.events.map((e) => e.payload.type)).toEqual([
          'batch_scrape.started',
          'batch_scrape.page',
          'batch_scrape.completed',
        ]);
      } finally {
        await second?.close();
        await receiver?.close();
        rmSync(storeDir, { recursive: true, force: true });
      }
    },
    30_000,
  );
});
