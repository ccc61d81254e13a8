import type { Command } from 'commander';

import type { Crawlkit } from '../crawlkit.js';
import type { CommandContext } from './context.js';
import { MCP_PORT } from './command-flags.js';
import { CliError, EXIT, startFailure } from './errors.js';
import { integerFlag } from './integer-flag.js';
import { apiKeys, listenLimits, untilStopped, type ListenFlags, type ListenOptions } from './listen-flags.js';
import { engineSettings, loadCommandPackage } from './serve.js';
import { readServeFile, resolveCors } from './serve-config.js';
import { refuseUnreachedStore } from './store-reached.js';

/** What the CLI uses of `@crawlkit/mcp` (an optional package, loaded by this command only). */
export interface McpModule {
  serveMcpStdio(options: {
    crawlkit: Crawlkit;
    queueLimit?: number;
    creditLimit?: number;
    maxAnswerChars?: number;
    crawlWaitMs?: number;
    parseFileLimit?: number;
    parseRoot?: string;
    readyMinFreeMb?: number;
    stdin?: NodeJS.ReadableStream;
    stdout?: NodeJS.WritableStream;
  }): Promise<{ close(): Promise<void> }>;
  startMcpHttp(
    options: ListenOptions & {
      maxAnswerChars?: number;
      crawlWaitMs?: number;
      parseRoot?: string;
      readyMinFreeMb?: number;
    },
  ): Promise<{ url: string; close(): Promise<void> }>;
  isLoopbackHost(host: string): boolean;
  guardStdout(
    stdout: NodeJS.WritableStream,
    stderr: NodeJS.WritableStream,
  ): { channel: NodeJS.WritableStream; release(): void };
}

interface McpFlags extends ListenFlags {
  http?: boolean;
  maxAnswerChars?: string;
  crawlWaitMs?: string;
  parseRoot?: string;
  parseFileLimit?: string;
  readyMinFree?: string;
}

/** Flags of MCP over HTTP, which stdio would ignore: a client that gives one meant `--http`. */
const HTTP_ONLY = ['port', 'host', 'apiKey', 'cors', 'keysShareJobs'];

function refuseHttpFlags(command: Command): void {
  const given = command.options.find(
    (option) =>
      HTTP_ONLY.includes(option.attributeName()) && command.getOptionValueSource(option.attributeName()) === 'cli',
  );
  if (given?.long) throw new CliError(`${given.long} applies to MCP over HTTP: add --http (stdio takes none of it)`);
}

/**
 * `crawlkit mcp`: firecrawl-mcp's tools over stdio (default) or streamable HTTP (`--http`), answered by this
 * process's engine on the store every other command uses, with `serve`'s settings (flags, environment, config file):
 * URL policy, model, proxies, search provider, keys and limits. Runs until stdin closes (stdio), Ctrl-C or SIGTERM.
 */
export async function mcpCommand(ctx: CommandContext, command: Command, mcpModule?: McpModule): Promise<number> {
  const flags = command.opts<McpFlags>();
  if (!flags.http) refuseHttpFlags(command);
  const file = readServeFile(flags, process.env, process.cwd());
  const { bodyLimit, ...limits } = listenLimits(flags, file);
  const host = flags.host ?? '127.0.0.1';
  const mcp = mcpModule ?? (await loadCommandPackage<McpModule>('@crawlkit/mcp', 'mcp'));
  // Over stdio, stdout is the JSON-RPC stream from here on, before the engine loads: what its dependencies or worker
  // threads print to it (console.log) goes to stderr.
  const guard = flags.http ? undefined : mcp.guardStdout(ctx.io.stdout, ctx.io.stderr);
  // Over stdio the client is the local process that started this one: loopback's rules.
  const loopback = !flags.http || mcp.isLoopbackHost(host);
  const maxAnswerChars = integerFlag('--max-answer-chars', flags.maxAnswerChars);
  const crawlWaitMs = integerFlag('--crawl-wait-ms', flags.crawlWaitMs, 0);
  const parseFileLimit = integerFlag('--parse-file-limit', flags.parseFileLimit) ?? file.parseFileLimit;
  const readyMinFreeMb = integerFlag('--ready-min-free', flags.readyMinFree, 0) ?? file.readyMinFreeMb;
  const answers = {
    ...(readyMinFreeMb !== undefined ? { readyMinFreeMb } : {}),
    ...(maxAnswerChars !== undefined ? { maxAnswerChars } : {}),
    ...(crawlWaitMs !== undefined ? { crawlWaitMs } : {}),
    ...(parseFileLimit !== undefined ? { parseFileLimit } : {}),
    ...(flags.parseRoot !== undefined ? { parseRoot: flags.parseRoot } : {}),
  };
  const { options } = await engineSettings(ctx, flags, file, loopback, 'mcp');
  // as serve's: a file firecrawl_parse reads is one the engine's parse() takes
  if (parseFileLimit !== undefined) options.parseFileLimit = parseFileLimit;
  ctx.configure(options);
  await ctx.load();
  // Refused at start, as serve refuses it: a store it cannot open (one a newer crawlkit migrated, after a roll-back)
  // would otherwise answer every tool call with the store's error.
  await refuseUnreachedStore(ctx.engine).catch((error: unknown) => {
    guard?.release();
    throw error;
  });
  let running: { close(): Promise<void> };
  try {
    if (flags.http) {
      const port = integerFlag('--port', flags.port, 0) ?? MCP_PORT;
      const cors = resolveCors(flags, process.env, file);
      const http = await mcp.startMcpHttp({
        crawlkit: ctx.engine,
        port,
        host,
        ...apiKeys(flags, file),
        ...(flags.keysShareJobs || file.keysShareJobs ? { keysShareJobs: true } : {}),
        ...(bodyLimit !== undefined ? { bodyLimit } : {}),
        ...(cors !== undefined ? { cors } : {}),
        ...limits,
        ...answers,
      });
      ctx.io.stderr.write(`${http.url}\n`);
      ctx.note(`crawlkit serves MCP (streamable HTTP) on ${http.url} (store ${ctx.storePlace}). Ctrl-C stops it.`);
      running = http;
    } else {
      running = await mcp.serveMcpStdio({
        crawlkit: ctx.engine,
        stdin: ctx.io.stdin,
        stdout: guard?.channel ?? ctx.io.stdout,
        ...limits,
        ...answers,
      });
      ctx.note(`crawlkit serves MCP on stdio (store ${ctx.storePlace}).`);
    }
  } catch (error) {
    throw startFailure(error, 'Cannot serve MCP');
  }
  // Over stdio the client ends the session by closing our input.
  await untilStopped(ctx, flags.http ? undefined : ctx.io.stdin);
  await running.close();
  guard?.release();
  return EXIT.ok;
}
