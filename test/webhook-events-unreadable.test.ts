/**
 * Webhook events an older crawlkit cannot read (written by a newer one: a roll-back, or an older process beside a newer
 * one on the store) stay pending for a crawlkit that reads them, and the engine says so once as it meets them (before:
 * they were skipped without a word). The store is a real SQLite file; the newer build's records are made by rewriting
 * the version of one job's delivery records, as a newer crawlkit would have written them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { createSqliteStore } from '@crawlkit/store';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { freePort, ok, startReceiver, until, type Receiver } from './helpers-batch.ts';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

const webhooks = { retryDelayMs: 30, maxRetryDelayMs: 100, maxAttempts: 1000, timeoutMs: 1000 };

it('leaves the events of a newer crawlkit pending and says how many, of which jobs, once', async () => {
  const storeDir = mkdtempSync(join(tmpdir(), 'ck-webhooks-unreadable-'));
  const port = await freePort();
  let receiver: Receiver | undefined;
  try {
    // The receiver is down: both jobs' events stay pending when the first engine closes.
    const first = new Crawlkit({ storeDir, engine: 'http', webhooks });
    const jobs: string[] = [];
    for (const page of ['articles/first-post.html', 'listing.html']) {
      const job = ok(
        await first.batchScrape({ urls: [`${server.url}/${page}`], webhook: `http://127.0.0.1:${port}/` }),
      );
      ok(await first.waitForJob(job.id));
      jobs.push(job.id);
    }
    await first.close();
    const [newer, older] = jobs as [string, string];
    const db = new DatabaseSync(join(storeDir, 'crawlkit.db'));
    try {
      const rows = db.prepare('SELECT id, payload FROM deliveries WHERE job_id = ?').all(newer) as {
        id: string;
        payload: string;
      }[];
      expect(rows).toHaveLength(3);
      const rewrite = db.prepare('UPDATE deliveries SET payload = ? WHERE id = ?');
      for (const row of rows) rewrite.run(JSON.stringify({ ...JSON.parse(row.payload), v: 2 }), row.id);
    } finally {
      db.close();
    }

    receiver = await startReceiver({ port });
    const warnings: { code: string; message: string }[] = [];
    const second = new Crawlkit({ storeDir, engine: 'http', webhooks });
    second.on('warning', (warning) => warnings.push(warning));
    try {
      second.getCreditUsage();
      // The readable job's events go; the other's stay.
      await until(() => receiver!.events.length === 3);
      await until(() => warnings.some((w) => w.code === 'WEBHOOK_EVENTS_UNREADABLE'));
      expect(receiver.events.every((e) => e.payload.id === older)).toBe(true);
    } finally {
      await second.close();
    }
    const unreadable = warnings.filter((w) => w.code === 'WEBHOOK_EVENTS_UNREADABLE');
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]!.message).toContain(`3 webhook events of job ${newer} cannot be read by this crawlkit`);
    expect(unreadable[0]!.message).toContain('it has version 2, and this crawlkit reads up to 1');

    // Left as they were for a crawlkit that reads them.
    const store = await createSqliteStore({ dir: storeDir });
    try {
      expect((await store.deliveries.pending(newer)).map((d) => d.payload.includes('"v":2'))).toEqual([
        true,
        true,
        true,
      ]);
      expect(await store.deliveries.pending(older)).toEqual([]);
    } finally {
      await store.close();
    }
  } finally {
    await receiver?.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
}, 40_000);
