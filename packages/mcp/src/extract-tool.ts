/**
 * `firecrawl_extract`, which crawlkit does not offer (the v2 interface has no extract endpoint): an agent prompt
 * written for firecrawl-mcp that calls it gets a tool error saying what to call instead, with the call made from its
 * own arguments. As firecrawl-mcp 3.26 does, the tool is answered but not listed: no model is shown a tool that never
 * works.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

import { nullable, withoutNulls } from './tool-params.js';
import type { ToolKit } from './tool-kit.js';

export const EXTRACT_TOOL = 'firecrawl_extract';

/** firecrawl-mcp's arguments of `firecrawl_extract`, each optional: whatever a call gives, it is told what to do. */
export const extractShape = nullable({
  urls: z.array(z.string()).optional(),
  prompt: z.string().optional(),
  schema: z.record(z.string(), z.any()).optional(),
  allowExternalLinks: z.boolean().optional(),
  enableWebSearch: z.boolean().optional(),
  includeSubdomains: z.boolean().optional(),
});

type ExtractArgs = { urls?: string[]; prompt?: string; schema?: Record<string, unknown> };

/** The call that does what `firecrawl_extract` was asked: a json scrape of its page, a batch of its pages. */
export function extractInstead({ urls = [], prompt, schema }: ExtractArgs): { name: string; arguments: object } {
  const jsonOptions = {
    ...(prompt !== undefined ? { prompt } : {}),
    ...(schema !== undefined ? { schema } : {}),
  };
  const options = { formats: ['json'], ...(prompt !== undefined || schema !== undefined ? { jsonOptions } : {}) };
  if (urls.length > 1) return { name: 'firecrawl_batch_scrape', arguments: { urls, ...options } };
  return { name: 'firecrawl_scrape', arguments: { url: urls[0] ?? 'https://example.com/page', ...options } };
}

/** The v2 error `firecrawl_extract` answers, with `nextTool` made from the call's arguments. */
export function extractNotOffered(args: ExtractArgs): object {
  return {
    success: false,
    code: 'ENDPOINT_NOT_SUPPORTED',
    error:
      'firecrawl_extract is a firecrawl-mcp tool that crawlkit does not offer (it has no extract endpoint). For ' +
      'JSON from a page, call firecrawl_scrape with its url, formats: ["json"] and jsonOptions: { prompt, schema }; ' +
      'for several pages, firecrawl_batch_scrape with urls and the same formats and jsonOptions (each page answers ' +
      'its own json), or firecrawl_crawl with them in scrapeOptions for a whole site. nextTool is that call, made ' +
      'from these arguments.',
    nextTool: extractInstead(args),
  };
}

/** Registers `firecrawl_extract` (answering `extractNotOffered`), left out of the tool list. */
export function registerExtractTool(server: McpServer, { tool, result }: ToolKit): void {
  tool(
    EXTRACT_TOOL,
    {
      title: 'Extract (not offered: use firecrawl_scrape with the json format)',
      description:
        'Not offered by crawlkit: answers an error naming the call that does it, firecrawl_scrape with ' +
        'formats: ["json"] and jsonOptions (firecrawl_batch_scrape for several URLs).',
      inputSchema: extractShape,
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    (args) => Promise.resolve(result(extractNotOffered(withoutNulls(args)))),
  );
  unlisted(server, EXTRACT_TOOL);
}

type Handler = (request: unknown, extra: unknown) => Promise<{ tools: { name: string }[] }>;

/**
 * Leaves the tool `name` out of `tools/list`, still answering its calls (the SDK lists every enabled tool and answers a
 * disabled one "Tool … disabled"). The list handler is the SDK's private one: an SDK without it lists the tool.
 */
function unlisted(server: McpServer, name: string): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const list = handlers?.get('tools/list');
  if (!handlers || !list) return;
  handlers.set('tools/list', async (request, extra) => {
    const answer = await list(request, extra);
    return { ...answer, tools: answer.tools.filter((tool) => tool.name !== name) };
  });
}
