/**
 * A Redis that needs a password, met with none or a wrong one (found walking distributed mode as an operator): the
 * error names what Redis refused and what to give, at `createRedisStore()`, at `redis()`'s connect and in
 * `crawlkit worker`. Before, each said only `Cannot connect to Redis: Connection is closed. (STORE_OPEN_FAILED)`.
 */
import { PassThrough } from 'node:stream';

import { createRedisStore, redis } from '@crawlkit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runWorker } from '../packages/crawlkit/src/cli/worker.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

let server: RedisServer | undefined;
let port = '';

beforeAll(async () => {
  server = await ownRedisServer(['--requirepass', 'right-password']);
  port = server ? new URL(server.url).port : '';
});
afterAll(() => stopOwnRedisServer(server));

describe('Redis with a password', () => {
  it('says the password is missing, or wrong, and how to give it', async () => {
    if (!server) return;
    const none = createRedisStore({ url: `redis://127.0.0.1:${port}` });
    await expect(none).rejects.toMatchObject({ code: 'STORE_OPEN_FAILED', message: expect.stringMatching(/NOAUTH/) });
    await expect(none).rejects.toThrow(/redis:\/\/:<password>@/);
    const wrong = createRedisStore({ url: `redis://:nope@127.0.0.1:${port}` });
    await expect(wrong).rejects.toMatchObject({
      code: 'STORE_OPEN_FAILED',
      message: expect.stringMatching(/WRONGPASS/),
    });
    await expect(redis({ url: `redis://:nope@127.0.0.1:${port}` }).connect()).rejects.toThrow(/WRONGPASS/);

    const store = await createRedisStore({ url: `redis://:right-password@127.0.0.1:${port}` });
    await store.close();
  });

  it('crawlkit worker prints what Redis refused, not that the connection closed', async () => {
    if (!server) return;
    const stderr = new PassThrough();
    const io = { stdout: new PassThrough(), stderr, stdin: new PassThrough() } as never;
    const flags = { redis: `redis://:nope@127.0.0.1:${port}`, quiet: true };
    const run = runWorker(flags, io, new AbortController().signal, { redis });
    await expect(run).rejects.toThrow(/WRONGPASS/);
    await expect(run).rejects.not.toThrow(/Connection is closed/);
  });
});
