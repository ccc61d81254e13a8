/**
 * Redis paused under `serve`: a request that meets the outage answers 503 `REDIS_UNAVAILABLE`, as `/ready` does for
 * the same outage, so that a client's or a load balancer's retry rule sees a service unavailable for now (it answered
 * 500, the status of a server fault that retrying does not mend). Once Redis answers again, the same request answers
 * the job, nothing lost.
 */
import { randomUUID } from 'node:crypto';

import { redis } from '@crawlkit/redis';
import { startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { call } from './helpers/raw-http.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let site: FixtureServer;
let redisServer: RedisServer | undefined;
beforeAll(async () => {
  site = await startFixtureServer();
  redisServer = await ownRedisServer();
}, 60_000);
afterAll(async () => {
  await stopOwnRedisServer(redisServer);
  await site.close();
});

describe('serve on a Redis that stops answering', () => {
  it('answers 503 REDIS_UNAVAILABLE, as /ready does, and the job once Redis is back', { timeout: 90_000 }, async () => {
    if (!redisServer) return;
    const ck = new Crawlkit({
      backend: redis({ url: redisServer.url, prefix: `ck-serve-outage-${randomUUID()}`, commandTimeoutMs: 1_500 }),
      engine: 'http',
    });
    const server = await startServer({ port: 0, crawlkit: ck, logger: quiet });
    try {
      const started = await call(server.url, 'POST', '/v2/crawl', { body: { url: `${site.url}/`, limit: 2 } });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const path = `/v2/crawl/${started.body.id as string}`;

      process.kill(redisServer.pid, 'SIGSTOP');
      try {
        const status = await call(server.url, 'GET', path);
        expect(status.body).toMatchObject({ success: false, code: 'REDIS_UNAVAILABLE' });
        expect(status.status).toBe(503);
        expect((await call(server.url, 'GET', '/ready')).status).toBe(503);
      } finally {
        process.kill(redisServer.pid, 'SIGCONT');
      }

      const again = await call(server.url, 'GET', path);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatchObject({ success: true });
    } finally {
      await server.close();
      await ck.close();
    }
  });
});
