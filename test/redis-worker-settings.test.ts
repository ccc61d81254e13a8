/**
 * Workers of one deployment with different URL policies are told at start. Each worker applies its own policy on top
 * of each job's, so with one `--url-policy strict` worker beside permissive ones, a crawl of an internal site had
 * the pages the strict one took fail `URL_BLOCKED` and the others stored (one strict worker of two: 172 of 200 pages
 * failed), and nothing said why. A worker now compares its policy with the live workers' (kept with their presence
 * in Redis) and warns (`warning` event, a `warning:` line of `crawlkit worker`). A real `redis-server`.
 */
import { randomUUID } from 'node:crypto';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { testRedis } from './setup/redis.ts';

const testRedisUrl = await testRedis();

describe.skipIf(!testRedisUrl)('workers of one deployment', () => {
  it('warn at start when another live worker runs with another URL policy', async () => {
    const prefix = `ck-settings-${randomUUID()}`;
    const engine = (urlPolicy?: 'strict') =>
      new Crawlkit({
        backend: redis({ url: testRedisUrl!, prefix }),
        engine: 'http',
        ...(urlPolicy ? { urlPolicy } : {}),
      });
    const open = engine();
    const same = engine();
    const strict = engine('strict');
    const warnings = new Map<Crawlkit, { code: string; message: string }[]>();
    for (const ck of [open, same, strict]) {
      warnings.set(ck, []);
      ck.on('warning', (warning) => warnings.get(ck)!.push(warning));
    }
    try {
      await open.startWorker();
      await same.startWorker();
      expect(warnings.get(same)).toEqual([]);
      await strict.startWorker();
      expect(warnings.get(strict)).toEqual([
        expect.objectContaining({
          code: 'WORKER_SETTINGS_DIFFER',
          message: expect.stringMatching(/same --url-policy/),
        }),
      ]);
      expect(warnings.get(strict)![0]!.message).toMatch(/"allowPrivateNetworks":false/);
    } finally {
      await strict.close();
      await same.close();
      await open.close();
    }
  }, 30_000);
});
