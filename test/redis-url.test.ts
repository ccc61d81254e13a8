/**
 * Redis URLs a platform team writes by hand (found walking distributed crawls, qa48b): a database number the server
 * does not have (`/99` on a default Redis of 16), a database that is not a number (`/abc`), a password with a `%`,
 * `/` or `#` left unescaped, and the port of another service. Before, `/99` and `/abc` ran every job in database 0
 * without a word (where another deployment's keys may be), the `%` was `An unexpected error occurred: URI malformed
 * (UNKNOWN_ERROR)`, a `/` in the password was printed back in the CLI's error, and an HTTP server's port was
 * `Unknown RESP type 72 "H". Please report this.`, and a host name that does not resolve a bare `getaddrinfo ENOTFOUND`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createRedisStore, redis } from '@crawlkit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveRedis } from '../packages/crawlkit/src/cli/redis-settings.ts';
import { whyNotConnected } from '../packages/redis/src/errors.ts';
import { ownRedisServer, stopOwnRedisServer, type RedisServer } from './setup/redis.ts';

const server: RedisServer | undefined = await ownRedisServer();
let http: Server;
let httpPort = 0;

beforeAll(async () => {
  http = createServer((_req, res) => res.end('not redis'));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpPort = (http.address() as AddressInfo).port;
});
afterAll(async () => {
  await stopOwnRedisServer(server);
  await new Promise((resolve) => http.close(resolve));
});

describe('a Redis URL crawlkit would misread', () => {
  it('is refused before connecting, saying what to change and never showing the password', async () => {
    expect(() => redis({ url: 'redis://127.0.0.1:6379/abc' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringMatching(/"\/abc", is not a database/) }),
    );
    await expect(createRedisStore({ url: 'redis://:s3cr%t@127.0.0.1:6379' })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringMatching(/% that starts no %XX escape; percent-encode .*% as %25/),
    });
    await expect(createRedisStore({ url: 'redis://:s3cr%t@127.0.0.1:6379' })).rejects.not.toThrow(/s3cr/);

    const slash = () => resolveRedis({ redis: 'redis://:pa/ss@127.0.0.1:6379/3' }, {});
    expect(slash).toThrow(/does not parse as a URL: .*percent-encode .*\/ as %2F/);
    expect(slash).not.toThrow(/pa\/ss/);
    expect(() => resolveRedis({ redis: 'redis://:pa#ss@127.0.0.1:6379/3' }, {})).toThrow(/# as %23/);
    expect(() => resolveRedis({ redis: 'redis://127.0.0.1:6379/1x' }, {})).toThrow(/"\/1x", is not a database/);
    // What is right goes through: an escaped password, a database, none.
    expect(resolveRedis({ redis: 'redis://:pa%2Fss@127.0.0.1:6379/3' }, {})).toMatchObject({ url: expect.any(String) });
    expect(() => redis({ url: 'rediss://user:pw@127.0.0.1:6379/' })).not.toThrow();
  });

  it.skipIf(!server)('refuses a database the server does not have, and writes nothing in database 0', async () => {
    const url = server!.url;
    await expect(createRedisStore({ url: `${url}/99` })).rejects.toMatchObject({
      code: 'STORE_OPEN_FAILED',
      message: expect.stringMatching(/Redis has no database 99 \(ERR DB index is out of range\).*databases/),
    });
    await expect(redis({ url: `${url}/99`, prefix: 'ck-url' }).connect()).rejects.toThrow(/no database 99/);
    const db0 = await createRedisStore({ url });
    try {
      expect(await db0.client.dbsize()).toBe(0);
    } finally {
      await db0.close();
    }
    // A database it has: the keys go there.
    const connection = await redis({ url: `${url}/15`, prefix: 'ck-url' }).connect();
    await connection.close();
    const db15 = await createRedisStore({ url: `${url}/15` });
    try {
      expect(await db15.client.dbsize()).toBeGreaterThan(0);
    } finally {
      await db15.close();
    }
  });

  it('says a server that is not Redis is not, without asking to report it', async () => {
    const opened = createRedisStore({ url: `redis://127.0.0.1:${httpPort}`, connectTimeoutMs: 5_000 });
    await expect(opened).rejects.toMatchObject({
      code: 'STORE_OPEN_FAILED',
      message: expect.stringMatching(/does not answer as Redis .*check the URL's host and port/),
    });
    await expect(opened).rejects.not.toThrow(/Please report/);
  });

  it('says a host name that does not resolve is the thing to check', () => {
    // Node's error for a name its resolver does not know (as `redis://redis-prod:6379` from a machine without it).
    const error = Object.assign(new Error('getaddrinfo ENOTFOUND redis-prod'), { code: 'ENOTFOUND' });
    expect(whyNotConnected(error)).toMatch(/ENOTFOUND redis-prod: the URL's host name does not resolve .*spelling/);
  });
});
