import type { Crawlkit } from '../crawlkit.js';
import { CliError, exitCodeFor } from './errors.js';
import { describeRedis, type RedisSettings } from './redis-settings.js';

/**
 * Opens the engine's store before a long-running command (`serve`, `mcp`) starts listening, and refuses to start
 * when it cannot: a store directory that cannot be made, a store file of a newer crawlkit (`STORE_SCHEMA_TOO_NEW`,
 * a roll-back), a damaged one, a Redis that is not there or refuses the password. Said once at start, with the
 * store's own code and exit code, rather than as the answer to every request of a server that runs on regardless.
 */
export async function refuseUnreachedStore(
  engine: Crawlkit,
  redis?: Pick<RedisSettings, 'url' | 'prefix'>,
): Promise<void> {
  const reached = await engine.listUnfinishedJobs();
  if (Array.isArray(reached)) return;
  const why = `${reached.error}${reached.code ? ` (${reached.code})` : ''}`;
  throw new CliError(redis ? `Cannot use Redis at ${describeRedis(redis)}: ${why}` : why, {
    exitCode: exitCodeFor(reached.code),
    ...(reached.code ? { code: reached.code } : {}),
  });
}
