import type { Redis } from 'ioredis';

import { RedisBackendError } from './errors.js';

/**
 * The server's `maxmemory-policy`: from `CONFIG GET`, else from `INFO memory` (a managed Redis or an ACL user may
 * refuse `CONFIG`); undefined when neither answers it.
 */
async function evictionPolicy(client: Redis): Promise<string | undefined> {
  const config = await client.config('GET', 'maxmemory-policy').catch(() => undefined);
  if (Array.isArray(config) && typeof config[1] === 'string') return config[1];
  const info = await client.info('memory').catch(() => '');
  return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
}

/**
 * Refuses a Redis whose `maxmemory-policy` evicts keys (anything but `noeviction`): at `maxmemory` it would drop jobs,
 * their tasks, results and queue items without a word, and a job missing a task never ends. `allowEviction` goes on.
 */
export async function checkEvictionPolicy(client: Redis, allowEviction: boolean): Promise<void> {
  if (allowEviction) return;
  const policy = await evictionPolicy(client);
  if (policy === undefined || policy === 'noeviction') return;
  throw new RedisBackendError(
    'REDIS_EVICTION_POLICY',
    `Redis's maxmemory-policy is ${policy}: at maxmemory it evicts keys, and would drop jobs, their queued tasks and ` +
      'results without a word (a job missing a task never ends). Set maxmemory-policy noeviction on the server ' +
      '(CONFIG SET maxmemory-policy noeviction, and in redis.conf), or pass allowEviction: true ' +
      '(--redis-allow-eviction) to go on anyway.',
  );
}
