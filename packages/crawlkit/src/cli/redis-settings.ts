/**
 * The one home of the Redis settings of the command line (`worker`, `serve`, `status`, `cancel`, `resume`): the flag,
 * `CRAWLKIT_REDIS_URL`/`CRAWLKIT_REDIS_PREFIX`, and `serve`'s settings file, and the loading of `@crawlkit/redis`, an
 * optional peer of crawlkit that only these commands need.
 */
import { redactUrl } from '@crawlkit/fetcher/analysis';
import { redisUrlError } from '@crawlkit/options/redis-url';
import type { CrawlkitBackend } from '@crawlkit/store';

import type { CrawlkitOptions } from '../options.js';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import type { RedisFlags } from './redis-flags.js';

/** What the CLI uses of `@crawlkit/redis`. */
export interface RedisModule {
  redis(options: {
    url: string;
    prefix?: string;
    taskLockMs?: number;
    taskRetryDelayMs?: number;
    allowEviction?: boolean;
    searchIndex?: boolean;
  }): CrawlkitBackend;
}

/** Where a deployment's Redis is: the same URL and prefix make one deployment. */
export interface RedisSettings {
  url: string;
  /** @default 'crawlkit' (the backend's) */
  prefix?: string;
  /** Go on with a Redis whose `maxmemory-policy` evicts keys (refused otherwise). @default false */
  allowEviction?: boolean;
  /**
   * Keep a search index of the pages and results in Redis (`--no-redis-search-index` turns it off): local search reads
   * it; it costs ~31 KB and ~0.5 ms of Redis's thread a page. The same in every process of the deployment.
   * @default true
   */
  searchIndex?: boolean;
}

/** A settings file's `redis` entry (`serve`'s `crawlkit.config.json`). */
export interface RedisFileSettings {
  redis?: { url: string; prefix?: string; allowEviction?: boolean; searchIndex?: boolean };
}

/**
 * The Redis of a command: the flag, else `CRAWLKIT_REDIS_URL`, else the settings file; the prefix likewise. Undefined
 * when none is given. A URL that is not `redis://` or `rediss://`, or that ioredis would misread (`redisUrlProblem`), is
 * bad input (exit 2).
 */
export function resolveRedis(
  flags: RedisFlags,
  env: NodeJS.ProcessEnv,
  file: RedisFileSettings = {},
): RedisSettings | undefined {
  const url = flags.redis ?? (env.CRAWLKIT_REDIS_URL || undefined) ?? file.redis?.url;
  if (url === undefined) return undefined;
  const problem = redisUrlError(url, '--redis');
  if (problem !== undefined) throw new CliError(problem);
  const prefix = flags.redisPrefix ?? (env.CRAWLKIT_REDIS_PREFIX || undefined) ?? file.redis?.prefix;
  if (prefix === '') throw new CliError('Expected --redis-prefix to be a key prefix, got ""');
  const allowEviction = flags.redisAllowEviction === true || file.redis?.allowEviction === true;
  const searchIndex = flags.redisSearchIndex !== false && file.redis?.searchIndex !== false;
  return {
    url,
    ...(prefix !== undefined ? { prefix } : {}),
    ...(allowEviction ? { allowEviction } : {}),
    ...(searchIndex ? {} : { searchIndex }),
  };
}

/** Loads `@crawlkit/redis`, saying what to install when it is not there. */
export async function loadRedis(command: string): Promise<RedisModule> {
  // A variable specifier: crawlkit does not depend on @crawlkit/redis, only these commands need it.
  const specifier = '@crawlkit/redis';
  try {
    return (await import(specifier)) as RedisModule;
  } catch (cause) {
    throw new CliError(
      `\`crawlkit ${command}\` with Redis needs the @crawlkit/redis package: npm install ${specifier}`,
      {
        cause,
        exitCode: EXIT.failure,
      },
    );
  }
}

/** The engine's `backend` for `settings`, with `@crawlkit/redis` loaded (or `module`, in tests). */
export async function redisBackend(
  settings: RedisSettings,
  command: string,
  extra: { taskLockMs?: number; taskRetryDelayMs?: number } = {},
  module?: RedisModule,
): Promise<CrawlkitBackend> {
  const backends = module ?? (await loadRedis(command));
  return backends.redis({ ...settings, ...extra });
}

/** How a note names the deployment: the URL without its password, and the prefix when not the default. */
export function describeRedis(settings: Pick<RedisSettings, 'url' | 'prefix'>): string {
  return `${redactUrl(settings.url)}${settings.prefix ? ` (prefix ${settings.prefix})` : ''}`;
}

/**
 * Points the command's engine at the Redis of its flags (or environment, or `file`), and records it on the context
 * for the command's messages; a `--store` given instead keeps the command on that store. Returns the settings, or
 * undefined when no Redis is given (the on-disk store then).
 */
export async function useRedis(
  ctx: CommandContext,
  flags: RedisFlags,
  file?: RedisFileSettings,
): Promise<RedisSettings | undefined> {
  // The store directory a command is given wins over a Redis of the environment or the settings file.
  if (ctx.options.store !== undefined) {
    if (flags.redis !== undefined) throw new CliError('Choose one of --store and --redis: jobs live in one of them');
    return undefined;
  }
  const settings = resolveRedis(flags, process.env, file);
  if (!settings) return undefined;
  const options: CrawlkitOptions = { backend: await redisBackend(settings, ctx.command?.name() ?? 'serve') };
  ctx.configure(options);
  ctx.redis = settings;
  return settings;
}
