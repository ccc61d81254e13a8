import type { Logger } from '../logger.js';
import type { CrawlkitOptions } from '../options.js';
import type { CliIo } from './context.js';
import { engineOptionsOf, type EngineFlags } from './engine-options.js';
import { CliError, EXIT, toldInLog } from './errors.js';
import { integerFlag } from './integer-flag.js';
import { proxyFromEnv } from './proxy-env.js';
import { describeRedis, redisBackend, resolveRedis, type RedisModule } from './redis-settings.js';
import { logJobs } from './job-log.js';
import type { LogFormat } from './log-flags.js';
import { runLogger } from './run-log.js';

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
  /** Warnings and errors only. */
  quiet?: boolean;
  /** `--log-format` (commander gives its default). @default 'text' */
  logFormat?: LogFormat;
}

/**
 * Runs a worker until `signal` aborts (the CLI aborts it on Ctrl-C and SIGTERM); resolves to the exit code.
 * `redisModule` replaces the dynamic import of `@crawlkit/redis` (tests).
 */
export async function runWorker(
  flags: WorkerFlags,
  io: CliIo,
  signal: AbortSignal,
  redisModule?: RedisModule,
): Promise<number> {
  // Its lines from the start, so that a failure to start is one of them under --log-format json.
  const log = runLogger(io.stderr, {
    ...(flags.logFormat ? { format: flags.logFormat } : {}),
    quiet: flags.quiet ?? false,
    debugScope: 'worker',
  });
  try {
    return await workUntilStopped(flags, log, signal, redisModule);
  } catch (error) {
    // With JSON lines, a supervisor reading them gets the failure as one of them, with its code.
    throw flags.logFormat === 'json' && !signal.aborted ? toldInLog(log, error, 'worker-failed') : error;
  }
}

async function workUntilStopped(
  flags: WorkerFlags,
  log: Logger,
  signal: AbortSignal,
  redisModule: RedisModule | undefined,
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
  const note = (line: string, fields?: Record<string, unknown>) => log.info(line, ...(fields ? [fields] : []));
  logJobs(ck, log);
  let pages = 0;
  let failures = 0;
  /** Errors without a page: the store or queue failed (Redis paused, out of memory), a robots.txt could not be read. */
  let others = 0;
  ck.on('page', ({ jobId, document }) => {
    pages++;
    const { sourceURL, statusCode } = document.metadata;
    note(`page ${jobId ?? ''} ${sourceURL} (${statusCode})`, { event: 'page', job: jobId, url: sourceURL, statusCode });
  });
  ck.on('warning', ({ code, message }) => log.warn(message, { code }));
  ck.on('error', ({ jobId, url: pageUrl, error }) => {
    const code = error.code ?? 'UNKNOWN_ERROR';
    if (!pageUrl) {
      // The store or queue failed: the operator's to fix, whatever the pages. Read `<time> error (not a page) …`.
      others++;
      log.error(`(not a page) ${jobId ? `job ${jobId}: ` : ''}${error.error} (${code})`, { job: jobId, code });
      return;
    }
    // A page failed: the site's doing, told in its job's status and errors too.
    failures++;
    note(`page failed ${jobId ?? ''} ${pageUrl}: ${error.error} (${code})`, { job: jobId, url: pageUrl, code });
  });

  try {
    const worker = await ck.startWorker({
      ...(storeFaultTimeoutMs !== undefined ? { storeFaultTimeoutMs } : {}),
      ...(sweepIntervalMs !== undefined ? { sweepIntervalMs } : {}),
    });
    const index = settings.searchIndex === false ? ', no search index' : '';
    note(`worker ${worker.id} taking tasks from ${describeRedis(settings)}${index}`);
    if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    note('stopping: finishing the pages in hand (Ctrl-C again to quit at once; unfinished tasks go to other workers)');
    await worker.close();
  } finally {
    await ck.close();
  }
  note(`worker stopped: ${pages} pages stored, ${failures} failed${others ? `, ${others} errors not of a page` : ''}`);
  return EXIT.ok;
}
