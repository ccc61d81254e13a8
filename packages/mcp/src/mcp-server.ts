import { Admission } from '@crawlkit/server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Crawlkit } from 'crawlkit';

import { answerBadArgumentsAsV2 } from './bad-arguments.js';
import { InFlight } from './in-flight.js';
import { registerTools, type SessionCall, type ToolAnswers, type ToolSettings } from './tools.js';

/** The version the MCP server announces. */
export const MCP_SERVER_VERSION = '0.1.0';

/**
 * An MCP server with the crawlkit tools, answered by `crawlkit` under `admission` (the HTTP server's queue limit),
 * each call carrying `session` (tenant, credit limit), its answers shaped by `answers` (their length; whether
 * `firecrawl_parse` is offered, and where it reads).
 */
export function createMcpServer(
  crawlkit: Crawlkit,
  admission: Admission,
  session: SessionCall,
  answers: ToolSettings = {},
): McpServer {
  return toolServer(crawlkit, admission, session, answers, new InFlight());
}

/** `createMcpServer`, its calls counted by `inFlight` (what the transports' `close()` waits for). */
export function toolServer(
  crawlkit: Crawlkit,
  admission: Admission,
  session: SessionCall,
  answers: ToolSettings,
  inFlight: InFlight,
): McpServer {
  const server = new McpServer(
    { name: 'crawlkit', version: MCP_SERVER_VERSION },
    {
      instructions:
        'crawlkit scrapes, maps, crawls and searches on this machine. firecrawl_search searches the pages crawlkit ' +
        'has stored (and the web when a provider is configured); crawl a site first to make it searchable.',
    },
  );
  registerTools(server, crawlkit, admission, session, answers, inFlight);
  answerBadArgumentsAsV2(server);
  return server;
}

export { Admission };
export type { ToolAnswers, ToolSettings };
