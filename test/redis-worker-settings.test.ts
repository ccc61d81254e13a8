/**
 * Workers of one deployment with different URL policies are told at start. Each worker applies its own policy on top
 * of each job's, so with one `--url-policy strict` worker beside permissive ones, a crawl of an internal site had
 * the pages the strict one took fail `URL_BLOCKED` and the others stored (one strict worker of two: 172 of 200 pages
 * failed), and nothing said why. A worker now compares its policy with the live workers' (kept with their presence
 * in Redis) and warns (`warning` event, a `warning:` line of `crawlkit worker`). So it does for the search index,
 * which must be on or off in every process alike (a worker without it stores pages local search never finds), and
 * for the crawlkit version (workers of different versions were not compared). A real `redis-server`.
 */
import { randomUUID } from 'node:crypto';

import { redis } from '@crawlkit/redis';
import { Crawlkit } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { VERSION } from '../packages/crawlkit/src/cli/version.ts';

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

  it('warn at start when another live worker keeps the search index and this one does not', async () => {
    const prefix = `ck-settings-${randomUUID()}`;
    const engine = (searchIndex: boolean) =>
      new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix, searchIndex }), engine: 'http' });
    const indexed = engine(true);
    const bare = engine(false);
    const warnings: { code: string; message: string }[] = [];
    bare.on('warning', (warning) => warnings.push(warning));
    try {
      await indexed.startWorker();
      await bare.startWorker();
      expect(warnings).toEqual([
        expect.objectContaining({ code: 'WORKER_SETTINGS_DIFFER', message: expect.stringMatching(/search index/) }),
      ]);
      expect(warnings[0]!.message).toContain('runs with the search index (this one: without the search index)');
      expect(warnings[0]!.message).toContain('--no-redis-search-index');
    } finally {
      await bare.close();
      await indexed.close();
    }
  }, 30_000);

  it('warn at start when another live worker holds a running page for another time (--task-lock-ms)', async () => {
    const prefix = `ck-settings-${randomUUID()}`;
    const engine = (taskLockMs: number) =>
      new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix, taskLockMs }), engine: 'http' });
    const long = engine(30_000);
    const same = engine(30_000);
    const short = engine(5_000);
    const warnings = new Map<Crawlkit, { code: string; message: string }[]>();
    for (const ck of [long, same, short]) {
      warnings.set(ck, []);
      ck.on('warning', (warning) => warnings.get(ck)!.push(warning));
    }
    try {
      await long.startWorker();
      await same.startWorker();
      expect(warnings.get(same)).toEqual([]);
      await short.startWorker();
      expect(warnings.get(short)).toEqual([
        expect.objectContaining({ code: 'WORKER_SETTINGS_DIFFER', message: expect.stringMatching(/--task-lock-ms/) }),
      ]);
      expect(warnings.get(short)![0]!.message).toContain('for another time (30000 ms; this one: 5000 ms)');
    } finally {
      await short.close();
      await same.close();
      await long.close();
    }
  }, 30_000);

  it('warn at start when another live worker runs another crawlkit version, and say what to upgrade', async () => {
    const prefix = `ck-settings-${randomUUID()}`;
    // Other workers' presence, as their versions write it: a later version's, and one from before versions were
    // compared (its settings were its URL policy alone).
    const others = await redis({ url: testRedisUrl!, prefix }).connect();
    const later = JSON.stringify({ searchIndex: true, urlPolicy: {}, version: '9.9.9' });
    const older = JSON.stringify({});
    const idle = () => new Promise<void>(() => undefined);
    const consumers = [
      await others.queue.consume(idle, { concurrency: 1, settings: later }),
      await others.queue.consume(idle, { concurrency: 1, settings: older }),
    ];
    const ck = new Crawlkit({ backend: redis({ url: testRedisUrl!, prefix }), engine: 'http' });
    const warnings: { code: string; message: string }[] = [];
    ck.on('warning', (warning) => warnings.push(warning));
    try {
      await ck.startWorker();
      const versions = warnings.filter((warning) => /version of crawlkit/.test(warning.message));
      expect(versions).toEqual([expect.objectContaining({ code: 'WORKER_SETTINGS_DIFFER' })]);
      expect(versions[0]!.message).toContain(`(9.9.9, an older one, which does not say; this one: ${VERSION})`);
      expect(versions[0]!.message).toMatch(/upgrade every worker \(and serve\) to the same version/);
    } finally {
      await ck.close();
      for (const consumer of consumers) await consumer.close();
      await others.close();
    }
  }, 30_000);
});
