import type { Command } from 'commander';

import type { Crawlkit } from '../crawlkit.js';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { addProviderFlags, type ProviderFlags } from './search-provider.js';
import { apiKeys, engineSettings, integer, loadCommandPackage } from './serve.js';
import { CONFIG_FILE, readServeFile, resolveCors, type ServeConfigFlags } from './serve-config.js';

/** What the CLI uses of `@crawlkit/mcp` (an optional package, loaded by this command only). */
export interface McpModule {
  serveMcpStdio(options: {
    crawlkit: Crawlkit;
    queueLimit?: number;
    creditLimit?: number;
    stdin?: NodeJS.ReadableStream;
    stdout?: NodeJS.WritableStream;
  }): Promise<{ close(): Promise<void> }>;
  startMcpHttp(options: {
    crawlkit: Crawlkit;
    port?: number;
    host?: string;
    apiKeys?: readonly string[];
    keysShareJobs?: boolean;
    bodyLimit?: number;
    queueLimit?: number;
    creditLimit?: number;
    cors?: 'loopback' | '*' | false | readonly string[];
  }): Promise<{ url: string; close(): Promise<void> }>;
  isLoopbackHost(host: string): boolean;
}

interface McpFlags extends ServeConfigFlags, ProviderFlags {
  http?: boolean;
  port?: string;
  host?: string;
  apiKey?: string[];
  keysShareJobs?: boolean;
  allowPrivateNetworks?: boolean;
  creditLimit?: string;
  queueLimit?: string;
  bodyLimit?: string;
}

export const MCP_EXAMPLES = [
  'crawlkit mcp                          # stdio, for Claude Desktop, Cursor, ...',
  'crawlkit mcp --http --port 3003       # streamable HTTP at http://127.0.0.1:3003/mcp',
  'CRAWLKIT_API_KEY=secret crawlkit mcp --http --host 0.0.0.0',
];

/**
 * `crawlkit mcp`: firecrawl-mcp's tools over stdio (default) or streamable HTTP (`--http`), answered by this
 * process's engine on the store every other command uses, with `serve`'s settings (flags, environment, config file):
 * URL policy, model, proxies, search provider, keys and limits. Runs until stdin closes (stdio), Ctrl-C or SIGTERM.
 */
export async function mcpCommand(ctx: CommandContext, command: Command, mcpModule?: McpModule): Promise<number> {
  const flags = command.opts<McpFlags>();
  const file = readServeFile(flags, process.env, process.cwd());
  const creditLimit = integer('--credit-limit', flags.creditLimit, 0) ?? file.creditLimit;
  const queueLimit = integer('--queue-limit', flags.queueLimit, 1) ?? file.queueLimit;
  const bodyLimit = integer('--body-limit', flags.bodyLimit, 1) ?? file.bodyLimit;
  const host = flags.host ?? '127.0.0.1';
  const mcp = mcpModule ?? (await loadCommandPackage<McpModule>('@crawlkit/mcp', 'mcp'));
  // Over stdio the client is the local process that started this one: loopback's rules.
  const loopback = !flags.http || mcp.isLoopbackHost(host);
  const { options } = await engineSettings(ctx, flags, file, loopback);
  ctx.configure(options);
  const limits = {
    ...(creditLimit !== undefined ? { creditLimit } : {}),
    ...(queueLimit !== undefined ? { queueLimit } : {}),
  };
  let running: { close(): Promise<void> };
  try {
    if (flags.http) {
      const port = integer('--port', flags.port, 0) ?? 3003;
      const cors = resolveCors(flags, process.env, file);
      const http = await mcp.startMcpHttp({
        crawlkit: ctx.engine,
        port,
        host,
        apiKeys: apiKeys(flags, file),
        ...(flags.keysShareJobs || file.keysShareJobs ? { keysShareJobs: true } : {}),
        ...(bodyLimit !== undefined ? { bodyLimit } : {}),
        ...(cors !== undefined ? { cors } : {}),
        ...limits,
      });
      ctx.io.stderr.write(`${http.url}\n`);
      ctx.note(`crawlkit serves MCP (streamable HTTP) on ${http.url} (store ${ctx.storeDir}). Ctrl-C stops it.`);
      running = http;
    } else {
      running = await mcp.serveMcpStdio({
        crawlkit: ctx.engine,
        stdin: ctx.io.stdin,
        stdout: ctx.io.stdout,
        ...limits,
      });
      ctx.note(`crawlkit serves MCP on stdio (store ${ctx.storeDir}).`);
    }
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'INVALID_OPTION') throw new CliError(String(message), { cause: error });
    throw new CliError(`Cannot serve MCP: ${String(message)}`, { cause: error, exitCode: EXIT.failure });
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      ctx.io.stdin.off('end', stop);
      ctx.signal.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGTERM', stop);
    // Over stdio the client ends the session by closing our input.
    if (!flags.http) ctx.io.stdin.once('end', stop);
    if (ctx.signal.aborted) stop();
    else ctx.signal.addEventListener('abort', stop, { once: true });
  });
  await running.close();
  return EXIT.ok;
}

/** Adds the `mcp` options to its command. */
export function addMcpFlags(command: Command): Command {
  command
    .option('--http', 'serve streamable HTTP at /mcp instead of stdio')
    .option('--port <port>', 'with --http: TCP port; 0 picks a free one (default 3003)')
    .option('--host <host>', 'with --http: interface (default 127.0.0.1; any other needs an API key)')
    .option(
      '--api-key <key>',
      'with --http: accepted key (Authorization: Bearer <key>); repeatable; env CRAWLKIT_API_KEY',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--keys-share-jobs', 'with --http: every API key sees every job (default: each key its own)')
    .option('--cors <origins>', 'with --http: browser origins allowed: loopback (default), *, off, or a list')
    .option('--config <file>', `serve's settings file (default ./${CONFIG_FILE} when present); env CRAWLKIT_CONFIG`)
    .option('--model <name>', 'language model for json, summary, question; env MODEL_NAME')
    .option('--model-base-url <url>', 'OpenAI-compatible API of the model; env OPENAI_BASE_URL or OLLAMA_BASE_URL')
    .option(
      '--proxy <url>',
      'proxy for page fetches; repeatable; env PROXY_SERVER',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--allow-private-networks', 'with --http beyond loopback, keep the allow-all URL policy instead of strict')
    .option('--credit-limit <n>', 'credits the tools may spend (default: no limit)')
    .option('--queue-limit <n>', 'scrape/map/search calls in progress at once (default 1024)')
    .option('--body-limit <bytes>', 'with --http: largest request body (default 10485760)');
  return addProviderFlags(command);
}
