/**
 * A load balancer polls `GET /ready` every few seconds; while the store is unready each poll used to write a `warn`
 * line, burying every other line of the log. Now a change of readiness is one line (unready: `warn` with its code;
 * ready again: `info`), and the probes' access lines are `debug` whatever they answer. The store is a Redis of the
 * file's own, made full and then not by its `maxmemory` (`CONFIG SET`), so that readiness changes both ways.
 */
import { createRedisStore, redis } from '@crawlkit/redis';
import { startServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { call } from './helpers/raw-http.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

const MIB = 1024 * 1024;
let redisServer: RedisServer | undefined;

beforeAll(async () => {
  redisServer = await ownRedisServer();
}, 60_000);
afterAll(async () => {
  await stopOwnRedisServer(redisServer);
});

describe('/ready logs a change of readiness once', () => {
  it('one warn when it turns unready, one info when ready again, whatever the polls; probes at debug', async () => {
    expect(redisServer, 'a redis-server for this file').toBeDefined();
    const adminStore = await createRedisStore({ url: redisServer!.url, prefix: 'ck-ready-log-admin' });
    const admin = adminStore.client;
    const ck = new Crawlkit({ backend: redis({ url: redisServer!.url, prefix: 'ck-ready-log' }), engine: 'http' });
    const lines: { level: string; msg: string; fields: unknown }[] = [];
    const record = (level: string) => (msg: string, fields?: unknown) => void lines.push({ level, msg, fields });
    const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
    const server = await startServer({ port: 0, crawlkit: ck, logger, readyMinFreeMb: 64 });
    const poll = async (times: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < times; i++) statuses.push((await call(server.url, 'GET', '/ready')).status);
      return statuses;
    };
    try {
      expect(await poll(3)).toEqual([200, 200, 200]);
      const used = Number(/^used_memory:(\d+)/m.exec(await admin.info('memory'))![1]);
      await admin.config('SET', 'maxmemory', String(used + 32 * MIB));
      expect(await poll(5)).toEqual([503, 503, 503, 503, 503]);
      await admin.config('SET', 'maxmemory', '0');
      expect(await poll(3)).toEqual([200, 200, 200]);

      const above = lines.filter((l) => l.level !== 'debug');
      expect(above).toEqual([
        {
          level: 'warn',
          msg: expect.stringMatching(/^Not ready \(STORE_FULL\): the store has less than 64 MiB of room left.*--ready/),
          fields: { path: '/ready', code: 'STORE_FULL' },
        },
        { level: 'info', msg: 'Ready again: /ready answers 200.', fields: { path: '/ready' } },
      ]);
      // Every poll still has its access line, at debug: 11 of them.
      expect(lines.filter((l) => l.level === 'debug' && /^GET \/ready (200|503) /.test(l.msg))).toHaveLength(11);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
      await server.close();
      await adminStore.close();
      await ck.close();
    }
  });
});
