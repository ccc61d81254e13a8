import type { Command } from 'commander';

import type { Crawlkit } from '../crawlkit.js';
import type { Logger } from '../logger.js';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { addProviderFlags, providerFromFlags } from './search-provider.js';

/** What the CLI uses of `@crawlkit/server`: not a dependency of crawlkit (it depends on crawlkit); installed beside it, loaded only by this command. */
export interface ServerModule {
  startServer(options: {
    crawlkit: Crawlkit;
    port?: number;
    host?: string;
    apiKeys?: readonly string[];
    bodyLimit?: number;
    queueLimit?: number;
    creditLimit?: number;
    logger?: Logger;
  }): Promise<{ url: string; close(): Promise<void> }>;
}

export interface ServeFlags {
  port?: string;
  host?: string;
  apiKey?: string[];
  creditLimit?: string;
  queueLimit?: string;
  bodyLimit?: string;
  searxngUrl?: string;
  braveApiKey?: string;
}

export const SERVE_EXAMPLES = [
  'crawlkit serve                      # http://127.0.0.1:3002, keyless, loopback only',
  'crawlkit serve --port 0 --store ./jobs',
  'CRAWLKIT_API_KEY=fc-secret crawlkit serve --host 0.0.0.0',
];

export function integer(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new CliError(`Expected ${flag} to be an integer ≥ ${min}, got "${value}"`);
  return n;
}

async function loadServer(): Promise<ServerModule> {
  // A variable specifier: crawlkit does not depend on @crawlkit/server, only this command needs it.
  const specifier = '@crawlkit/server';
  try {
    return (await import(specifier)) as ServerModule;
  } catch (cause) {
    throw new CliError('`crawlkit serve` needs the @crawlkit/server package: npm install @crawlkit/server', {
      cause,
      exitCode: EXIT.failure,
    });
  }
}

/** The keys of `--api-key` (repeatable) and `CRAWLKIT_API_KEY` (comma-separated; keeps them out of `ps`). */
export function apiKeys(flags: Pick<ServeFlags, 'apiKey'>): string[] {
  const fromEnv = (process.env.CRAWLKIT_API_KEY ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return [...(flags.apiKey ?? []), ...fromEnv];
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
  const port = integer('--port', flags.port, 0) ?? 3002;
  const creditLimit = integer('--credit-limit', flags.creditLimit, 0);
  const queueLimit = integer('--queue-limit', flags.queueLimit, 1);
  const bodyLimit = integer('--body-limit', flags.bodyLimit, 1);
  const keys = apiKeys(flags);
  const server = serverModule ?? (await loadServer());
  const provider = providerFromFlags(flags);
  ctx.configure({ resumeJobs: true, ...(provider ? { search: { provider } } : {}) });

  let running: { url: string; close(): Promise<void> };
  try {
    running = await server.startServer({
      crawlkit: ctx.engine,
      port,
      ...(flags.host !== undefined ? { host: flags.host } : {}),
      apiKeys: keys,
      ...(creditLimit !== undefined ? { creditLimit } : {}),
      ...(queueLimit !== undefined ? { queueLimit } : {}),
      ...(bodyLimit !== undefined ? { bodyLimit } : {}),
    });
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'SERVER_INVALID_OPTION') throw new CliError(String(message), { cause: error });
    throw new CliError(`Cannot serve on ${flags.host ?? '127.0.0.1'}:${port}: ${String(message)}`, {
      cause: error,
      exitCode: EXIT.failure,
    });
  }
  ctx.write(`${running.url}\n`);
  ctx.note(
    `crawlkit serves the v2 API on ${running.url} (store ${ctx.storeDir}; ` +
      `${keys.length ? `${keys.length} API key${keys.length > 1 ? 's' : ''}` : 'keyless'}). ` +
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
    .option('--credit-limit <n>', 'credits the server may spend, then 402 (default: no limit)')
    .option('--queue-limit <n>', 'scrape/map requests in progress at once, then 429 (default 1024)')
    .option('--body-limit <bytes>', 'largest request body, then 413 (default 10485760)');
  return addProviderFlags(command);
}
