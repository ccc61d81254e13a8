/**
 * The Redis flags of the commands that read or serve a deployment's jobs (`redis-settings.ts` resolves them): beside
 * the command definitions, loaded at every start, so this module imports nothing of the engine.
 */
import type { Command } from 'commander';

/** The Redis flags as commander parses them. */
export interface RedisFlags {
  redis?: string;
  redisPrefix?: string;
  redisAllowEviction?: boolean;
  /** False with `--no-redis-search-index`. */
  redisSearchIndex?: boolean;
}

/** Adds `--redis`, `--redis-prefix` and the other Redis flags to a command that reads or serves jobs. */
export function addRedisFlags(command: Command, what: string): Command {
  return command
    .option('--redis <url>', `${what} (default: none: jobs in the store); env CRAWLKIT_REDIS_URL`)
    .option('--redis-prefix <prefix>', 'key prefix of the deployment (default crawlkit); env CRAWLKIT_REDIS_PREFIX')
    .option(
      '--redis-allow-eviction',
      'go on with a Redis whose maxmemory-policy evicts keys (refused: it drops jobs and tasks without a word)',
    )
    .option(
      '--no-redis-search-index',
      'keep no search index in Redis (no local search of the pages; saves ~31 KB and ~0.5 ms of Redis a page); the same in every process',
    );
}
