import type { Command } from 'commander';

import type { Logger } from '../logger.js';
import type { CrawlkitOptions } from '../options.js';
import type { CommandContext } from './context.js';
import { missingBrowserWarning } from './browser-note.js';
import { SERVE_PORT } from './command-flags.js';
import { CliError, EXIT, startFailure, toldInLog } from './errors.js';
import { integerFlag } from './integer-flag.js';
import { apiKeys, listenLimits, untilStopped, type ListenFlags, type ListenOptions } from './listen-flags.js';
import { providerFromFlags, type ProviderFlags } from './search-provider.js';
import {
  readServeFile,
  resolveCors,
  resolveLlmSettings,
  resolveProxies,
  resolveListenAddress,
  resolveProxyAddressing,
  type ServeConfigFlags,
  type ServeFile,
} from './serve-config.js';
import { resolveWebhookSecret } from './webhook-secret.js';
import { refuseUnreachedStore } from './store-reached.js';
import { loadServeModel } from './serve-model.js';
import type { RedisFlags } from './redis-flags.js';
import { describeRedis, useRedis } from './redis-settings.js';
import { logJobs } from './job-log.js';
import type { LogFormat } from './log-flags.js';
import { runLogger } from './run-log.js';

/**
 * What the CLI uses of `@crawlkit/server`: not a dependency of crawlkit (it depends on crawlkit); installed beside it,
 * loaded only by this command.
 */
export interface ServerModule {
  startServer(
    options: ListenOptions & {
      bodyTimeoutMs?: number;
      closeTimeoutMs?: number;
      parseFileLimit?: number;
      readyMinFreeMb?: number;
      publicUrl?: string;
      trustProxy?: boolean | string[];
      logger?: Logger;
    },
  ): Promise<{ url: string; close(): Promise<void> }>;
  isLoopbackHost(host: string): boolean;
}

export interface ServeFlags extends ListenFlags, RedisFlags {
  /** `--log-format` (commander gives its default). */
  logFormat?: LogFormat;
  bodyTimeout?: string;
  closeTimeout?: string;
  parseFileLimit?: string;
  readyMinFree?: string;
  jobTtl?: string;
  resumeScan?: string;
}

/**
 * Loads a package crawlkit does not depend on (`@crawlkit/server`, `@crawlkit/mcp`: they depend on crawlkit), installed
 * beside it and needed by one command only.
 */
export async function loadCommandPackage<T>(specifier: string, command: string): Promise<T> {
  try {
    // A variable specifier: no bundler or type check follows it.
    return (await import(specifier)) as T;
  } catch (cause) {
    throw new CliError(`\`crawlkit ${command}\` needs the ${specifier} package: npm install ${specifier}`, {
      cause,
      exitCode: EXIT.failure,
    });
  }
}

/**
 * The engine settings `serve` (and `mcp`, the `command`) add: the model, the webhook secret and delivery settings (its
 * events naming the engine options as the command's answers do), the proxies, the browser and `http` settings, the
 * search provider, and the URL policy. On an interface other than loopback the policy is strict unless one is given
 * (`--url-policy`, `CRAWLKIT_URL_POLICY`, the file) or `--allow-private-networks` loosens it: key holders must not
 * reach the server's own network.
 */
export async function engineSettings(
  ctx: CommandContext,
  flags: ServeConfigFlags & ProviderFlags & Pick<ListenFlags, 'allowPrivateNetworks'>,
  file: ServeFile,
  loopback: boolean,
  command: 'serve' | 'mcp',
): Promise<{ options: CrawlkitOptions; notes: string[] }> {
  const env = process.env;
  // A webhook's receiver cannot set the engine's options either: its events name them as the command's answers do.
  const options: CrawlkitOptions = { resumeJobs: true, runSchedules: true, webhooks: { optionNames: command } };
  const notes: string[] = [];
  const llm = resolveLlmSettings(flags, env, file);
  if (llm) {
    options.llm = await loadServeModel(llm);
    notes.push(`model ${llm.model} at ${llm.baseUrl}`);
  }
  const secret = resolveWebhookSecret(flags, env, file);
  if (file.webhooks) options.webhooks = { ...options.webhooks, ...file.webhooks };
  if (secret) {
    options.webhooks = { ...options.webhooks, secret };
    notes.push('webhooks signed');
  }
  const proxies = resolveProxies(flags, env, file);
  if (proxies) options.proxies = proxies;
  if (file.browser) options.browser = file.browser;
  if (file.http) options.http = file.http;
  if (file.workers) options.workers = file.workers;
  if (file.extractionBudgetMs !== undefined) options.extractionBudgetMs = file.extractionBudgetMs;
  if (file.robotsTimeoutMs !== undefined) options.robotsTimeoutMs = file.robotsTimeoutMs;
  const provider = providerFromFlags(flags, env, file);
  if (provider) {
    options.search = { provider };
    notes.push(`web search by ${provider.kind}`);
  }
  const explicitPolicy = ctx.options.urlPolicy !== undefined || Boolean(env.CRAWLKIT_URL_POLICY);
  if (!explicitPolicy && file.urlPolicy !== undefined) options.urlPolicy = file.urlPolicy;
  else if (!explicitPolicy && !loopback && !flags.allowPrivateNetworks) {
    options.urlPolicy = 'strict';
    notes.push('strict URL policy (no private, loopback or metadata addresses; --allow-private-networks to loosen)');
  }
  return { options, notes };
}

/**
 * `crawlkit serve`: the v2 HTTP API over the store every other command uses (so `crawlkit status <id>` sees jobs
 * started over HTTP), until Ctrl-C or SIGTERM; running jobs then stay resumable and resume at the next start. With
 * `--redis`, jobs live in Redis and the deployment's `crawlkit worker`s run their pages: serve runs none of them.
 * `serverModule` replaces the dynamic import of `@crawlkit/server` (tests).
 */
export async function serveCommand(
  ctx: CommandContext,
  command: Command,
  serverModule?: ServerModule,
): Promise<number> {
  const flags = command.opts<ServeFlags>();
  // Its lines from the start: a request, a job taken or ended, a 5xx answer, the engine's warnings (--quiet: those).
  const log = runLogger(ctx.io.stderr, {
    ...(flags.logFormat ? { format: flags.logFormat } : {}),
    quiet: ctx.options.quiet ?? false,
    debugScope: 'server',
  });
  ctx.logger = log;
  try {
    return await serveWith(ctx, flags, log, serverModule);
  } catch (error) {
    // With JSON lines, a supervisor reading them gets the failure as one of them, with its code.
    throw flags.logFormat === 'json' && !ctx.signal.aborted ? toldInLog(log, error, 'serve-failed') : error;
  }
}

async function serveWith(
  ctx: CommandContext,
  flags: ServeFlags,
  log: Logger,
  serverModule: ServerModule | undefined,
): Promise<number> {
  const file = readServeFile(flags, process.env, process.cwd());
  const address = resolveListenAddress(flags, process.env, file);
  const port = address.port ?? SERVE_PORT;
  const host = address.host ?? '127.0.0.1';
  const limits = listenLimits(flags, file);
  const bodyTimeoutMs = integerFlag('--body-timeout', flags.bodyTimeout) ?? file.bodyTimeoutMs;
  const parseFileLimit = integerFlag('--parse-file-limit', flags.parseFileLimit) ?? file.parseFileLimit;
  const closeTimeoutMs = integerFlag('--close-timeout', flags.closeTimeout, 0) ?? file.closeTimeoutMs;
  const readyMinFreeMb = integerFlag('--ready-min-free', flags.readyMinFree, 0) ?? file.readyMinFreeMb;
  const cors = resolveCors(flags, process.env, file);
  const addressing = resolveProxyAddressing(flags, process.env, file);
  const keys = apiKeys(flags, file);
  const server = serverModule ?? (await loadCommandPackage<ServerModule>('@crawlkit/server', 'serve'));
  const redis = await useRedis(ctx, flags, file);
  const { options, notes } = await engineSettings(ctx, flags, file, server.isLoopbackHost(host), 'serve');
  const jobResultTtlMs = integerFlag('--job-ttl', flags.jobTtl) ?? file.jobResultTtlMs;
  if (jobResultTtlMs !== undefined) options.jobResultTtlMs = jobResultTtlMs;
  const resumeScanMs = integerFlag('--resume-scan', flags.resumeScan) ?? file.resumeScanMs;
  if (resumeScanMs !== undefined) options.resumeScanMs = resumeScanMs;
  // the engine's bound, which the server takes: an upload the server takes is one its parse() takes
  if (parseFileLimit !== undefined) options.parseFileLimit = parseFileLimit;
  ctx.configure(options);
  await ctx.load();
  await refuseUnreachedStore(ctx.engine, redis);

  // With Redis the workers end the jobs: followed in the store, so that their end is logged here too.
  const stopLog = logJobs(ctx.engine, log, redis !== undefined);
  // Store and queue failures outside any page (a page's own failure is in its answer or its job's status).
  ctx.engine.on('error', ({ jobId, url, error }) => {
    if (!url) log.error(`${jobId ? `job ${jobId}: ` : ''}${error.error} (${error.code ?? 'UNKNOWN_ERROR'})`);
  });

  let running: { url: string; close(): Promise<void> };
  try {
    running = await server.startServer({
      crawlkit: ctx.engine,
      logger: log,
      port,
      host,
      ...keys,
      ...(flags.keysShareJobs || file.keysShareJobs ? { keysShareJobs: true } : {}),
      ...limits,
      ...(bodyTimeoutMs !== undefined ? { bodyTimeoutMs } : {}),
      ...(closeTimeoutMs !== undefined ? { closeTimeoutMs } : {}),
      ...(readyMinFreeMb !== undefined ? { readyMinFreeMb } : {}),
      ...(cors !== undefined ? { cors } : {}),
      ...addressing,
    });
  } catch (error) {
    const failure = startFailure(error, `Cannot serve on ${host}:${port}`);
    // A generic variable such as HOST may have been exported for something else: say where the address came from.
    if (address.variables.length === 0) throw failure;
    throw new CliError(`${failure.message} (the address came from the environment: ${address.variables.join(', ')})`, {
      cause: failure.cause,
      code: failure.code,
      exitCode: failure.exitCode,
    });
  }
  // Before the address line, which a supervisor reads as "ready": a SIGTERM sent at once is a graceful stop (with no
  // listener yet, Node would die of it mid-start), and the warning is out before it.
  const stopped = untilStopped(ctx);
  const browser = redis ? undefined : missingBrowserWarning(ctx.options.engine, options.browser);
  // Even with --quiet, as the engine's warnings.
  if (browser) log.warn(browser);
  ctx.write(`${running.url}\n`);
  const count = keys.apiKeys.length;
  const keyNote = count ? `${count} API key${count > 1 ? 's' : ''}` : 'keyless';
  const jobs = redis
    ? `jobs in Redis at ${describeRedis(redis)}, their pages run by \`crawlkit worker\`s`
    : `store ${ctx.storePlace}`;
  ctx.note(
    `crawlkit serves the v2 API on ${running.url} (${jobs}; ${[keyNote, ...notes].join('; ')}). ` +
      'Ctrl-C or SIGTERM stops it; running jobs stay resumable.',
  );

  await stopped;
  ctx.note('stopping: finishing the requests in progress (Ctrl-C again to quit at once)');
  await running.close();
  stopLog();
  // The engine closes after this (CommandContext.close): running jobs stop where they are and stay resumable.
  return EXIT.ok;
}
