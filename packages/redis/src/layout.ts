import type { Redis } from 'ioredis';
import { StoreSchemaTooNewError } from '@crawlkit/store';

/**
 * The layout of crawlkit's keys and records in Redis that this code reads and writes, kept in `<prefix>:layout` as the
 * SQLite store keeps its schema version. Raise it with a change that the processes of the versions before would
 * misread or write over: they then refuse the deployment at start. Fields added to a record do not need it (a
 * process keeps the fields it does not know, `recordCodec`).
 */
export const REDIS_LAYOUT_VERSION = 1;

/** Raises the stamp to `ARGV[1]` (a deployment without one was written before it), and answers the stamp it holds. */
const STAMP = `
local held = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local mine = tonumber(ARGV[1])
if held < mine then
  redis.call('SET', KEYS[1], ARGV[1])
  return mine
end
return held
`;

/**
 * Stamps the deployment under `prefix` with this layout, or refuses it (`STORE_SCHEMA_TOO_NEW`, naming both versions)
 * when a newer crawlkit stamped it: an older one would misread what that one writes, and write over it.
 */
export async function checkLayout(client: Redis, prefix: string): Promise<void> {
  const held = Number(await client.eval(STAMP, 1, `${prefix}:layout`, String(REDIS_LAYOUT_VERSION)));
  if (held <= REDIS_LAYOUT_VERSION) return;
  throw new StoreSchemaTooNewError(
    held,
    REDIS_LAYOUT_VERSION,
    `The Redis deployment under the prefix \`${prefix}\` has layout version ${held}, newer than the ` +
      `${REDIS_LAYOUT_VERSION} this version of @crawlkit/redis reads: a newer crawlkit wrote it. Upgrade crawlkit ` +
      '(every worker and serve of the deployment to the same version), or use another --redis-prefix.',
  );
}
