import { statSync } from 'node:fs';
import { resolve } from 'node:path';

import { Admission, resolveServerOptions } from '@crawlkit/server';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { InvalidOptionError, type Crawlkit } from 'crawlkit';

import { InFlight } from './in-flight.js';
import { toolServer, type ToolAnswers } from './mcp-server.js';
import type { ParseFiles } from './parse-tool.js';
import { guardStdout } from './stdout-guard.js';

export interface McpStdioOptions extends ToolAnswers {
  crawlkit: Crawlkit;
  /** Tool calls (scrape, map, search) in progress at once; more answer QUEUE_FULL. @default 1024 */
  queueLimit?: number;
  /** Credits the tools may spend, then INSUFFICIENT_CREDITS. @default no limit */
  creditLimit?: number;
  /**
   * MiB the store must have left for a tool to start a job (crawl, batch, monitor run), else a `STORE_FULL` tool error
   * (serve's `readyMinFreeMb`; 0: no check). @default 64, or an eighth of the store's room when less
   */
  readyMinFreeMb?: number;
  /**
   * Largest file `firecrawl_parse` reads, in bytes; a larger one is a tool error.
   * @default the engine's `parseFileLimit` (52428800 unless raised)
   */
  parseFileLimit?: number;
  /**
   * The folder `firecrawl_parse` reads files under (relative paths against it), none out of it.
   * @default none: any file the process may read, relative paths against its working directory
   */
  parseRoot?: string;
  /**
   * The client's input and output. @default process.stdin and process.stdout; the process's stdout is then kept for
   * the JSON-RPC stream (`guardStdout`): anything else written to it (a `console.log` of this thread or of a worker
   * thread) goes to process.stderr until `close()`
   */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** Serves the tools over stdio (one client: the process that started this one). Resolves once connected. */
export async function serveMcpStdio(options: McpStdioOptions): Promise<{ close(): Promise<void> }> {
  const { parseFileLimit } = options;
  const resolved = resolveServerOptions({
    crawlkit: options.crawlkit,
    ...limits(options),
    ...(parseFileLimit !== undefined ? { parseFileLimit } : {}),
  });
  const answers = { ...answersOf(options), parseFiles: parseFilesOf(options.parseRoot, resolved.parseFileLimit) };
  const inFlight = new InFlight();
  const server = toolServer(
    options.crawlkit,
    new Admission(options.crawlkit, resolved.queueLimit, resolved.creditLimit, resolved.readyMinFreeMb),
    resolved.creditLimit !== undefined ? { creditLimit: resolved.creditLimit } : {},
    answers,
    inFlight,
  );
  const guard = options.stdout === undefined ? guardStdout(process.stdout, process.stderr) : undefined;
  const transport = new StdioServerTransport(
    options.stdin as NodeJS.ReadStream | undefined,
    (guard?.channel ?? options.stdout) as NodeJS.WriteStream | undefined,
  );
  await server.connect(transport);
  return {
    // Closing aborts the calls under way; each then ends its work (a crawl call cancels its crawl) before the engine
    // it uses may close.
    close: async () => {
      await server.close();
      await inFlight.settled();
      guard?.release();
    },
  };
}

/** Fewest characters an answer may be kept to: a page's metadata and a note must fit. */
const MIN_ANSWER_CHARS = 10_000;

/** The answer options given, checked (an option left out keeps its default). */
export function answersOf(options: ToolAnswers): ToolAnswers {
  const { maxAnswerChars: chars, crawlWaitMs: wait } = options;
  if (chars !== undefined && !(Number.isInteger(chars) && chars >= MIN_ANSWER_CHARS)) {
    throw new InvalidOptionError(
      'Invalid options of the MCP server: maxAnswerChars (crawlkit mcp --max-answer-chars) must be a whole number ' +
        `of at least ${MIN_ANSWER_CHARS} (got ${String(chars)}).`,
    );
  }
  if (wait !== undefined && !(Number.isInteger(wait) && wait >= 0)) {
    throw new InvalidOptionError(
      'Invalid options of the MCP server: crawlWaitMs (crawlkit mcp --crawl-wait-ms) must be a whole number of ' +
        `milliseconds (got ${String(wait)}).`,
    );
  }
  return {
    ...(chars !== undefined ? { maxAnswerChars: chars } : {}),
    ...(wait !== undefined ? { crawlWaitMs: wait } : {}),
  };
}

/** Where `firecrawl_parse` reads, `root` checked to be a folder. */
export function parseFilesOf(root: string | undefined, limit: number): ParseFiles {
  if (root === undefined) return { limit };
  const folder = resolve(root);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // told below
  }
  if (!isFolder) {
    throw new InvalidOptionError(
      `Invalid options of the MCP server: parseRoot (crawlkit mcp --parse-root) must be a folder (${folder} is not).`,
    );
  }
  return { root: folder, limit };
}

function limits(options: { queueLimit?: number; creditLimit?: number; readyMinFreeMb?: number }) {
  return {
    ...(options.queueLimit !== undefined ? { queueLimit: options.queueLimit } : {}),
    ...(options.creditLimit !== undefined ? { creditLimit: options.creditLimit } : {}),
    ...(options.readyMinFreeMb !== undefined ? { readyMinFreeMb: options.readyMinFreeMb } : {}),
  };
}
