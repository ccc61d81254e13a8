/**
 * The webhook outbox does not keep what it sent: a delivered or given-up event's body (a whole page, for a page
 * event) is dropped from the store, which kept it until the job expired (24 h by default), beside the page's result.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Crawlkit, type BatchScrapeResponse, type CrawlErrorsResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ok, startReceiver, until } from './helpers-batch.ts';

let site: FixtureServer;
let dir: string;

beforeAll(async () => {
  site = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'ck-outbox-size-'));
});

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The outbox rows of a SQLite store: state and payload length. */
function outbox(storeDir: string): { state: string; bytes: number }[] {
  const db = new DatabaseSync(join(storeDir, 'crawlkit.db'), { readOnly: true });
  try {
    return db.prepare('SELECT state, length(payload) AS bytes FROM deliveries ORDER BY seq').all() as {
      state: string;
      bytes: number;
    }[];
  } finally {
    db.close();
  }
}

describe('the webhook outbox after delivery', () => {
  it('keeps no body of a delivered or given-up event', async () => {
    const storeDir = join(dir, 'store');
    const ck = new Crawlkit({ storeDir, engine: 'http', webhooks: { retryDelayMs: 20, maxAttempts: 1 } });
    const receiver = await startReceiver();
    const refusing = await startReceiver({ status: 500 });
    try {
      const urls = [1, 2, 3].map((n) => `${site.url}/listing.html?outbox=${n}`);
      ok<BatchScrapeResponse>(await ck.batchScrape({ urls, webhook: receiver.url }));
      await until(() => receiver.events.some((e) => e.payload.type === 'batch_scrape.completed'));
      const given = ok<BatchScrapeResponse>(
        await ck.batchScrape({ urls: urls.slice(0, 1), webhook: { url: refusing.url, events: ['completed'] } }),
      );
      await until(async () => ((await ck.getBatchScrapeErrors(given.id)) as CrawlErrorsResponse).errors.length === 1);
      await ck.close();

      const rows = outbox(storeDir);
      expect(rows.map((r) => r.state).sort()).toEqual([...Array(5).fill('delivered'), 'failed'].sort());
      // Before: each page event kept its whole document (~1 KB here, ~15 KB on a real page) until the job expired.
      expect(rows.map((r) => r.bytes)).toEqual(Array(6).fill(0));
    } finally {
      await ck.close();
      await receiver.close();
      await refusing.close();
    }
  });
});
