import { randomUUID } from 'node:crypto';

import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

import { ownRedisServer, stopOwnRedisServer } from '../../../test/setup/redis.ts';
import { redisFailure } from './errors.js';

// A server of this file's own: filling its memory must not touch other files' tests.
const server = await ownRedisServer(['--maxmemory-policy', 'noeviction']);
const testRedisUrl = server?.url;
afterAll(() => stopOwnRedisServer(server));

/** The error a real Redis answers `run` with. */
async function replyOf(client: Redis, run: (client: Redis) => Promise<unknown>): Promise<unknown> {
  try {
    await run(client);
  } catch (error) {
    return error;
  }
  throw new Error('Redis answered without an error');
}

// The classes come from Redis's own error prefixes: a refusal for good ends a job, a passing state is retried.
describe.skipIf(!testRedisUrl)('redisFailure', () => {
  it('classes the replies of a real Redis by their prefix', async () => {
    const prefix = `ck-errors-${randomUUID().slice(0, 8)}`;
    const user = `ck-user-${randomUUID().slice(0, 8)}`;
    const admin = new Redis(testRedisUrl!);
    const limited = new Redis(testRedisUrl!.replace('redis://', `redis://${user}:pw@`), { lazyConnect: true });
    try {
      await admin.set(`${prefix}:string`, 'x');
      await admin.acl('SETUSER', user, 'on', '>pw', '+@all', `~${prefix}:allowed*`);
      await limited.connect();

      const wrongType = await replyOf(admin, (c) => c.hset(`${prefix}:string`, 'a', 'b'));
      const wrongTypeInScript = await replyOf(admin, (c) =>
        c.eval("return redis.call('hset', KEYS[1], 'a', 'b')", 1, `${prefix}:string`),
      );
      const noPerm = await replyOf(limited, (c) => c.set(`${prefix}:denied`, '1'));
      const noPermInScript = await replyOf(limited, (c) =>
        c.eval("return redis.call('set', KEYS[1], '1')", 1, `${prefix}:denied`),
      );
      const scriptError = await replyOf(admin, (c) => c.eval("return redis.call('nosuchcommand')", 0));
      expect(redisFailure(wrongType)).toMatchObject({ code: 'REDIS_REFUSED', message: /WRONGTYPE.*--redis-prefix/ });
      expect(redisFailure(wrongTypeInScript)).toMatchObject({ code: 'REDIS_REFUSED' });
      expect(redisFailure(noPerm)).toMatchObject({ code: 'REDIS_REFUSED', message: /NOPERM.*ACL SETUSER/ });
      expect(redisFailure(noPermInScript)).toMatchObject({ code: 'REDIS_REFUSED', message: /ACL SETUSER/ });
      expect(redisFailure(scriptError)).toMatchObject({ code: 'REDIS_REFUSED' });

      await admin.config('SET', 'maxmemory', '1');
      let outOfMemory: unknown;
      try {
        outOfMemory = await replyOf(admin, (c) => c.set(`${prefix}:more`, 'x'));
      } finally {
        await admin.config('SET', 'maxmemory', '0');
      }
      expect(redisFailure(outOfMemory)).toMatchObject({ code: 'STORE_IO', message: /OOM command not allowed/ });
      // What the operator does about it, in the message every worker line and job status carries.
      expect((redisFailure(outOfMemory) as Error).message).toMatch(/noeviction\): raise maxmemory .* or free memory/);
    } finally {
      limited.disconnect();
      admin.disconnect();
    }
  });

  it('takes a passing state wrapped in a script error (Redis 6) or too many clients as passing', () => {
    const replies = [
      "ERR Error running script (call to f_1d2c): @user_script:5: @user_script: 5: -OOM command not allowed when used memory > 'maxmemory'.",
      'ERR max number of clients reached',
    ];
    for (const reply of replies) expect(redisFailure(new Error(reply))).toMatchObject({ code: 'STORE_IO' });
    expect(redisFailure(new Error(replies[0])).message).toContain('raise maxmemory');
    expect(redisFailure(new Error(replies[1])).message).toContain('raise maxclients');
    expect(redisFailure(new Error('ERR unknown command `EVALSHA_RO`'))).toMatchObject({ code: 'REDIS_REFUSED' });
  });
});
