import { Admission, resolveServerOptions } from '@crawlkit/server';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Crawlkit } from 'crawlkit';

import { createMcpServer } from './mcp-server.js';

export interface McpStdioOptions {
  crawlkit: Crawlkit;
  /** Tool calls (scrape, map, search) in progress at once; more answer QUEUE_FULL. @default 1024 */
  queueLimit?: number;
  /** Credits the tools may spend, then INSUFFICIENT_CREDITS. @default no limit */
  creditLimit?: number;
  /** The client's input and output. @default process.stdin and process.stdout */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** Serves the tools over stdio (one client: the process that started this one). Resolves once connected. */
export async function serveMcpStdio(options: McpStdioOptions): Promise<{ close(): Promise<void> }> {
  const resolved = resolveServerOptions({ crawlkit: options.crawlkit, ...limits(options) });
  const server = createMcpServer(
    options.crawlkit,
    new Admission(options.crawlkit, resolved.queueLimit, resolved.creditLimit),
    resolved.creditLimit !== undefined ? { creditLimit: resolved.creditLimit } : {},
  );
  const transport = new StdioServerTransport(
    options.stdin as NodeJS.ReadStream | undefined,
    options.stdout as NodeJS.WriteStream | undefined,
  );
  await server.connect(transport);
  return { close: () => server.close() };
}

function limits(options: { queueLimit?: number; creditLimit?: number }) {
  return {
    ...(options.queueLimit !== undefined ? { queueLimit: options.queueLimit } : {}),
    ...(options.creditLimit !== undefined ? { creditLimit: options.creditLimit } : {}),
  };
}
