/**
 * A Redis deployment is stamped with the layout of crawlkit's keys (`<prefix>:layout`), as the SQLite store is with
 * its schema version: a crawlkit older than the deployment's layout (a roll-back, or one worker left behind after an
 * upgrade) refuses it at start with `STORE_SCHEMA_TOO_NEW` naming both versions, instead of misreading keys it does not
 * know and writing over them. A deployment written before the stamp is stamped and goes on. A real `redis-server`.
 */
import { randomUUID } from 'node:crypto';

import { createRedisStore, redis, REDIS_LAYOUT_VERSION } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { testRedis } from './setup/redis.ts';

const url = await testRedis();

async function withClient<T>(
  prefix: string,
  run: (client: Awaited<ReturnType<typeof createRedisStore>>['client']) => Promise<T>,
) {
  const store = await createRedisStore({ url: url!, prefix });
  try {
    return await run(store.client);
  } finally {
    const keys = await store.client.keys(`${prefix}:*`);
    if (keys.length) await store.client.del(...keys);
    await store.close();
  }
}

describe.skipIf(!url)("a Redis deployment's layout version", () => {
  it('is refused when newer than this crawlkit knows, naming both versions, and left as it is', async () => {
    const prefix = `ck-layout-${randomUUID()}`;
    await withClient(prefix, async (client) => {
      const newer = REDIS_LAYOUT_VERSION + 1;
      await client.set(`${prefix}:layout`, String(newer));
      const ck = new Crawlkit({ backend: redis({ url: url!, prefix }), engine: 'http' });
      try {
        const crawl = await ck.crawl({ url: 'http://127.0.0.1:1/' });
        expect(crawl).toMatchObject({ success: false, code: 'STORE_SCHEMA_TOO_NEW' });
        const error = !crawl.success ? crawl.error : '';
        expect(error).toContain(`layout version ${newer}`);
        expect(error).toContain(`${REDIS_LAYOUT_VERSION} this version`);
        expect(error).toMatch(/Upgrade crawlkit/);
      } finally {
        await ck.close();
      }
      expect(await client.get(`${prefix}:layout`)).toBe(String(newer));
      expect(await client.keys(`${prefix}:job:*`)).toEqual([]);
    });
  });

  it('is stamped on a deployment written before it (or a new one), which goes on', async () => {
    const prefix = `ck-layout-${randomUUID()}`;
    await withClient(prefix, async (client) => {
      const ck = new Crawlkit({ backend: redis({ url: url!, prefix }), engine: 'http' });
      try {
        expect(await ck.crawl({ url: 'http://127.0.0.1:1/' })).toMatchObject({ success: true });
      } finally {
        await ck.close();
      }
      expect(await client.get(`${prefix}:layout`)).toBe(String(REDIS_LAYOUT_VERSION));
    });
  });

  it("is refused as REDIS_REFUSED, saying what to grant, for an ACL user that may not touch the prefix's keys", async () => {
    const prefix = `ck-layout-${randomUUID()}`;
    const user = `ck-nokeys-${randomUUID().slice(0, 8)}`;
    await withClient(prefix, async (client) => {
      await client.acl('SETUSER', user, 'on', '>pw', '+@all', '~someone-else:*');
      const ck = new Crawlkit({
        backend: redis({ url: url!.replace('redis://', `redis://${user}:pw@`), prefix }),
        engine: 'http',
      });
      try {
        // Before: the layout stamp's NOPERM left the start as "An unexpected error occurred" (UNKNOWN_ERROR).
        const crawl = await ck.crawl({ url: 'http://127.0.0.1:1/' });
        expect(crawl).toMatchObject({ success: false, code: 'REDIS_REFUSED' });
        const error = !crawl.success ? crawl.error : '';
        expect(error).toContain('NOPERM');
        expect(error).toContain('ACL SETUSER');
      } finally {
        await ck.close();
        await client.acl('DELUSER', user);
      }
    });
  });
});
