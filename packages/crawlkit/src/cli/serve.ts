import type { Command } from 'commander';

import type { Crawlkit } from '../crawlkit.js';
import type { Logger } from '../logger.js';
import type { CrawlkitOptions } from '../options.js';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { addProviderFlags, providerFromFlags, type ProviderFlags } from './search-provider.js';
import {
  readServeFile,
  resolveCors,
  resolveLlmSettings,
  resolveProxies,
  resolveWebhookSecret,
  type ServeConfigFlags,
  type ServeFile,
} from './serve-config.js';
import { loadServeModel } from './serve-model.js';

/** What the CLI uses of `@crawlkit/server`: not a dependency of crawlkit (it depends on crawlkit); installed beside it, loaded only by this command. */
export interface ServerModule {
  startServer(options: {
    crawlkit: Crawlkit;
    port?: number;
    host?: string;
    apiKeys?: readonly string[];
    keysShareJobs?: boolean;
    bodyLimit?: number;
    bodyTimeoutMs?: number;
    parseFileLimit?: number;
    queueLimit?: number;
    creditLimit?: number;
    cors?: 'loopback' | '*' | false | readonly string[];
    logger?: Logger;
  }): Promise<{ url: string; close(): Promise<void> }>;
  isLoopbackHost(host: string): boolean;
}

export interface ServeFlags extends ServeConfigFlags, ProviderFlags {
  port?: string;
  host?: string;
  apiKey?: string[];
  creditLimit?: string;
  queueLimit?: string;
  bodyLimit?: string;
  bodyTimeout?: string;
  keysShareJobs?: boolean;
  allowPrivateNetworks?: boolean;
  parseFileLimit?: string;
}

export const SERVE_EXAMPLES = [
  'crawlkit serve                      # http://127.0.0.1:3002, keyless, loopback only',
  'crawlkit serve --port 0 --store ./jobs',
  'OPENAI_BASE_URL=http://127.0.0.1:11434/v1 MODEL_NAME=qwen3 crawlkit serve   # json, summary, question formats',
  'CRAWLKIT_API_KEY=fc-secret crawlkit serve --host 0.0.0.0   # strict URL policy beyond loopback',
  'crawlkit serve --config ./crawlkit.config.json',
];

export function integer(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new CliError(`Expected ${flag} to be an integer ≥ ${min}, got "${value}"`);
  return n;
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

/** The keys of `--api-key` (repeatable), `CRAWLKIT_API_KEY` (comma-separated; keeps them out of `ps`), the file. */
export function apiKeys(flags: Pick<ServeFlags, 'apiKey'>, file: ServeFile): string[] {
  const fromEnv = (process.env.CRAWLKIT_API_KEY ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return [...(flags.apiKey ?? []), ...fromEnv, ...(file.apiKeys ?? [])];
}

/**
 * The engine settings `serve` (and `mcp`) add: the model, the webhook secret, the proxies, the search provider, and
 * the URL policy. On an
 * interface other than loopback the policy is strict unless one is given (`--url-policy`, `CRAWLKIT_URL_POLICY`,
 * the file) or `--allow-private-networks` loosens it: key holders must not reach the server's own network.
 */
export async function engineSettings(
  ctx: CommandContext,
  flags: ServeConfigFlags & ProviderFlags & Pick<ServeFlags, 'allowPrivateNetworks'>,
  file: ServeFile,
  loopback: boolean,
): Promise<{ options: CrawlkitOptions; notes: string[] }> {
  const env = process.env;
  const options: CrawlkitOptions = { resumeJobs: true, runSchedules: true };
  const notes: string[] = [];
  const llm = resolveLlmSettings(flags, env, file);
  if (llm) {
    options.llm = await loadServeModel(llm);
    notes.push(`model ${llm.model} at ${llm.baseUrl}`);
  }
  const secret = resolveWebhookSecret(flags, env, file);
  if (secret) {
    options.webhooks = { secret };
    notes.push('webhooks signed');
  }
  const proxies = resolveProxies(flags, env, file);
  if (proxies) options.proxies = proxies;
  if (file.browser) options.browser = file.browser;
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
 * started over HTTP), until Ctrl-C or SIGTERM; running jobs then stay resumable and resume at the next start.
 * `serverModule` replaces the dynamic import of `@crawlkit/server` (tests).
 */
export async function serveCommand(
  ctx: CommandContext,
  command: Command,
  serverModule?: ServerModule,
): Promise<number> {
  const flags = command.opts<ServeFlags>();
  const file = readServeFile(flags, process.env, process.cwd());
  const port = integer('--port', flags.port, 0) ?? file.port ?? 3002;
  const host = flags.host ?? file.host ?? '127.0.0.1';
  const creditLimit = integer('--credit-limit', flags.creditLimit, 0) ?? file.creditLimit;
  const queueLimit = integer('--queue-limit', flags.queueLimit, 1) ?? file.queueLimit;
  const bodyLimit = integer('--body-limit', flags.bodyLimit, 1) ?? file.bodyLimit;
  const bodyTimeoutMs = integer('--body-timeout', flags.bodyTimeout, 1) ?? file.bodyTimeoutMs;
  const parseFileLimit = integer('--parse-file-limit', flags.parseFileLimit, 1) ?? file.parseFileLimit;
  const cors = resolveCors(flags, process.env, file);
  const keys = apiKeys(flags, file);
  const server = serverModule ?? (await loadCommandPackage<ServerModule>('@crawlkit/server', 'serve'));
  const { options, notes } = await engineSettings(ctx, flags, file, server.isLoopbackHost(host));
  ctx.configure(options);

  let running: { url: string; close(): Promise<void> };
  try {
    running = await server.startServer({
      crawlkit: ctx.engine,
      port,
      host,
      apiKeys: keys,
      ...(flags.keysShareJobs || file.keysShareJobs ? { keysShareJobs: true } : {}),
      ...(creditLimit !== undefined ? { creditLimit } : {}),
      ...(queueLimit !== undefined ? { queueLimit } : {}),
      ...(bodyLimit !== undefined ? { bodyLimit } : {}),
      ...(bodyTimeoutMs !== undefined ? { bodyTimeoutMs } : {}),
      ...(parseFileLimit !== undefined ? { parseFileLimit } : {}),
      ...(cors !== undefined ? { cors } : {}),
    });
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'INVALID_OPTION') throw new CliError(String(message), { cause: error });
    throw new CliError(`Cannot serve on ${host}:${port}: ${String(message)}`, {
      cause: error,
      exitCode: EXIT.failure,
    });
  }
  ctx.write(`${running.url}\n`);
  const keyNote = keys.length ? `${keys.length} API key${keys.length > 1 ? 's' : ''}` : 'keyless';
  ctx.note(
    `crawlkit serves the v2 API on ${running.url} (store ${ctx.storeDir}; ${[keyNote, ...notes].join('; ')}). ` +
      'Ctrl-C or SIGTERM stops it; running jobs stay resumable.',
  );

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      ctx.signal.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGTERM', stop);
    if (ctx.signal.aborted) stop();
    else ctx.signal.addEventListener('abort', stop, { once: true });
  });
  ctx.note('stopping: finishing the requests in progress (Ctrl-C again to quit at once)');
  await running.close();
  // The engine closes after this (CommandContext.close): running jobs stop where they are and stay resumable.
  return EXIT.ok;
}

/** Adds the `serve` options to its command. */
export function addServeFlags(command: Command): Command {
  command
    .option('--port <port>', 'TCP port; 0 picks a free one (default 3002)')
    .option('--host <host>', 'interface to listen on (default 127.0.0.1; any other needs an API key)')
    .option(
      '--api-key <key>',
      'accepted key (Authorization: Bearer <key>); repeatable; env CRAWLKIT_API_KEY (comma-separated)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--keys-share-jobs', 'every API key sees every job (default: each key sees only the jobs it started)')
    .option('--config <file>', `settings file (default ./crawlkit.config.json when present); env CRAWLKIT_CONFIG`)
    .option('--model <name>', 'language model for json, summary, question, crawl prompt; env MODEL_NAME')
    .option(
      '--model-base-url <url>',
      'OpenAI-compatible API of the model; env OPENAI_BASE_URL or OLLAMA_BASE_URL (key: env OPENAI_API_KEY)',
    )
    .option(
      '--webhook-secret <secret>',
      'sign webhooks (X-Firecrawl-Signature); env CRAWLKIT_WEBHOOK_SECRET or SELF_HOSTED_WEBHOOK_HMAC_SECRET',
    )
    .option(
      '--proxy <url>',
      'proxy for page fetches (http://user:pass@host:port); repeatable; env PROXY_SERVER',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--allow-private-networks', 'beyond loopback, keep the allow-all URL policy instead of strict')
    .option('--cors <origins>', 'browser origins allowed: loopback (default), *, off, or a comma-separated list')
    .option('--credit-limit <n>', 'credits the server may spend, then 402 (default: no limit)')
    .option('--queue-limit <n>', 'scrape/map requests in progress at once, then 429 (default 1024)')
    .option('--body-limit <bytes>', 'largest request body, then 413 (default 10485760)')
    .option('--body-timeout <ms>', 'time a request body may take to arrive, then 408 (default 30000)')
    .option('--parse-file-limit <bytes>', 'largest file POST /v2/parse takes, then 413 (default 52428800)');
  return addProviderFlags(command);
}
