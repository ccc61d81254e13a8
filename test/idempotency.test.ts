/**
 * Idempotency keys of crawl and batch starts (reference §2: `x-idempotency-key`, 409 on reuse): kept in the store,
 * so a key is refused after a restart and when two starts race.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { call } from './helpers/raw-http.ts';
import { startServeStack } from './helpers/serve.ts';

let site: FixtureServer;
let dir: string;

beforeAll(async () => {
  site = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'ck-idem-'));
});

afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('idempotency keys', () => {
  it('refuse a second start with the key, after a restart and across kinds', async () => {
    const first = new Crawlkit({ storeDir: dir, engine: 'http' });
    const started = await first.crawl({ url: `${site.url}/listing.html`, limit: 1 }, { idempotencyKey: 'nightly-1' });
    expect(started.success).toBe(true);
    await first.close();

    const second = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const again = await second.crawl({ url: `${site.url}/`, limit: 1 }, { idempotencyKey: 'nightly-1' });
      expect(again).toEqual({ success: false, code: 'IDEMPOTENCY_KEY_REUSED', error: 'Idempotency key already used' });
      const batch = await second.batchScrape({ urls: [`${site.url}/`] }, { idempotencyKey: 'nightly-1' });
      expect(batch).toMatchObject({ success: false, code: 'IDEMPOTENCY_KEY_REUSED' });
      // Another key starts a job.
      expect(await second.batchScrape({ urls: [`${site.url}/`] }, { idempotencyKey: 'nightly-2' })).toMatchObject({
        success: true,
      });
      const tooLong = await second.crawl({ url: `${site.url}/` }, { idempotencyKey: 'x'.repeat(257) });
      expect(tooLong).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    } finally {
      await second.close();
    }
  });

  it('let one of two racing starts win', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const body = { urls: [`${site.url}/listing.html`] };
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => ck.batchScrape(body, { idempotencyKey: 'race' })),
      );
      expect(answers.filter((a) => a.success)).toHaveLength(1);
      expect(answers.filter((a) => !a.success && a.code === 'IDEMPOTENCY_KEY_REUSED')).toHaveLength(4);
    } finally {
      await ck.close();
    }
  });

  it("are each API key's own on a server: another tenant's use neither refuses nor reveals a key", async () => {
    const stack = await startServeStack({ server: { apiKeys: ['fc-tenant-a', 'fc-tenant-b'] } });
    try {
      const start = (key: string, path: string, body: object) =>
        call(stack.server.url, 'POST', path, {
          headers: { authorization: `Bearer ${key}`, 'x-idempotency-key': 'nightly' },
          body,
        });
      const crawl = { url: stack.page('/listing.html'), limit: 1 };
      const a = await start('fc-tenant-a', '/v2/crawl', crawl);
      expect(a.status).toBe(200);
      // Key B's first use of `nightly` starts its own job, a crawl as a batch.
      const b = await start('fc-tenant-b', '/v2/crawl', crawl);
      expect(b.status).toBe(200);
      expect(b.body.id).not.toBe(a.body.id);
      // Each key's second use is refused, and B cannot read A's job by the id it would have had.
      for (const key of ['fc-tenant-a', 'fc-tenant-b']) {
        expect((await start(key, '/v2/batch/scrape', { urls: [stack.page('/')] })).body).toMatchObject({
          code: 'IDEMPOTENCY_KEY_REUSED',
        });
      }
      const read = await call(stack.server.url, 'GET', `/v2/crawl/${a.body.id as string}`, {
        headers: { authorization: 'Bearer fc-tenant-b' },
      });
      expect(read.status).toBe(404);
    } finally {
      await stack.close();
    }
  });
});
