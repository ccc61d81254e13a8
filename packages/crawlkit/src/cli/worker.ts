import type { CrawlkitOptions } from '../options.js';
import type { CliIo } from './context.js';
import { engineOptionsOf, type EngineFlags } from './engine-options.js';
import { CliError, EXIT } from './errors.js';
import { integerFlag } from './integer-flag.js';
import { proxyFromEnv } from './proxy-env.js';
import { describeRedis, redisBackend, resolveRedis, type RedisModule } from './redis-settings.js';

export interface WorkerFlags extends EngineFlags {
  redis?: string;
  /** The older name of `--redis-prefix`. */
  prefix?: string;
  redisPrefix?: string;
  redisAllowEviction?: boolean;
  /** False with `--no-redis-search-index`. */
  redisSearchIndex?: boolean;
  taskLockMs?: string;
  taskRetryDelayMs?: string;
  storeFaultTimeoutMs?: string;
  sweepIntervalMs?: string;
  quiet?: boolean;
}

/**
 * Runs a worker until `signal` aborts (Ctrl-C) or SIGTERM; resolves to the exit code. `redisModule` replaces the
 * dynamic import of `@crawlkit/redis` (tests).
 */
export async function runWorker(
  flags: WorkerFlags,
  io: CliIo,
  signal: AbortSignal,
  redisModule?: RedisModule,
): Promise<number> {
  const settings = resolveRedis(
    {
      redis: flags.redis,
      redisPrefix: flags.redisPrefix ?? flags.prefix,
      ...(flags.redisAllowEviction ? { redisAllowEviction: true } : {}),
      ...(flags.redisSearchIndex === false ? { redisSearchIndex: false } : {}),
    },
    process.env,
  );
  if (!settings) throw new CliError('Give the Redis URL with --redis <url> or CRAWLKIT_REDIS_URL');
  const engineOptions = engineOptionsOf(flags);
  const taskLockMs = integerFlag('--task-lock-ms', flags.taskLockMs);
  const taskRetryDelayMs = integerFlag('--task-retry-delay-ms', flags.taskRetryDelayMs);
  const storeFaultTimeoutMs = integerFlag('--store-fault-timeout-ms', flags.storeFaultTimeoutMs);
  const sweepIntervalMs = integerFlag('--sweep-interval-ms', flags.sweepIntervalMs);
  const backend = await redisBackend(
    settings,
    'worker',
    {
      ...(taskLockMs !== undefined ? { taskLockMs } : {}),
      ...(taskRetryDelayMs !== undefined ? { taskRetryDelayMs } : {}),
    },
    redisModule,
  );
  const { Crawlkit } = await import('../crawlkit.js');

  const proxy = proxyFromEnv(process.env);
  const options: CrawlkitOptions = { backend, ...engineOptions, ...(proxy ? { proxies: { basic: [proxy] } } : {}) };
  const ck = new Crawlkit(options);
  const note = (line: string) => {
    if (!flags.quiet) io.stderr.write(`${line}\n`);
  };
  let pages = 0;
  let failures = 0;
  /** Errors without a page: the store or queue failed (Redis paused, out of memory), a robots.txt could not be read. */
  let others = 0;
  ck.on('page', ({ jobId, document }) => {
    pages++;
    note(`page ${jobId ?? ''} ${document.metadata.sourceURL} (${document.metadata.statusCode})`);
  });
  ck.on('warning', ({ message }) => io.stderr.write(`warning: ${message}\n`));
  ck.on('error', ({ jobId, url: pageUrl, error }) => {
    if (!pageUrl) {
      others++;
      note(`error (not a page) ${jobId ? `job ${jobId}: ` : ''}${error.error} (${error.code ?? 'UNKNOWN_ERROR'})`);
      return;
    }
    failures++;
    note(`error ${jobId ?? ''} ${pageUrl}: ${error.error} (${error.code ?? 'UNKNOWN_ERROR'})`);
  });

  const stop = new AbortController();
  const onTerm = () => stop.abort();
  process.once('SIGTERM', onTerm);
  signal.addEventListener('abort', onTerm, { once: true });
  try {
    const worker = await ck.startWorker({
      ...(storeFaultTimeoutMs !== undefined ? { storeFaultTimeoutMs } : {}),
      ...(sweepIntervalMs !== undefined ? { sweepIntervalMs } : {}),
    });
    const index = settings.searchIndex === false ? ', no search index' : '';
    note(`worker ${worker.id} taking tasks from ${describeRedis(settings)}${index}`);
    if (!stop.signal.aborted) await new Promise((resolve) => stop.signal.addEventListener('abort', resolve));
    note('stopping: finishing the pages in hand (Ctrl-C again to quit at once; unfinished tasks go to other workers)');
    await worker.close();
  } finally {
    process.off('SIGTERM', onTerm);
    signal.removeEventListener('abort', onTerm);
    await ck.close();
  }
  note(`worker stopped: ${pages} pages stored, ${failures} failed${others ? `, ${others} errors not of a page` : ''}`);
  return EXIT.ok;
}
