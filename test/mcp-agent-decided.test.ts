/**
 * `crawlkit mcp` over stdio on the design questions of the MCP agent's day, decided: `firecrawl_extract` answered with
 * the call to make instead.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';

import { useMcpAgent } from './helpers/mcp-agent.ts';

let siteUrl: string;
let client: Client;
const { call } = useMcpAgent({
  started: (agent) => ({ siteUrl, client } = agent),
  crawlStarted: () => undefined,
  stderr: () => undefined,
});

it('answers firecrawl_extract, left out of the list as firecrawl-mcp does, with the call to make instead', async () => {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).not.toContain('firecrawl_extract');

  const schema = { type: 'object', properties: { title: { type: 'string' } } };
  const one = await call('firecrawl_extract', { urls: [`${siteUrl}/p/1`], prompt: 'The title', schema });
  // Before: "MCP error -32602: Tool firecrawl_extract not found", nothing an agent could act on.
  expect(one.isError).toBe(true);
  expect(one.json).toMatchObject({
    success: false,
    code: 'ENDPOINT_NOT_SUPPORTED',
    nextTool: {
      name: 'firecrawl_scrape',
      arguments: { url: `${siteUrl}/p/1`, formats: ['json'], jsonOptions: { prompt: 'The title', schema } },
    },
  });
  expect(one.json?.error).toContain('call firecrawl_scrape with its url, formats: ["json"] and jsonOptions');

  const several = await call('firecrawl_extract', { urls: [`${siteUrl}/p/1`, `${siteUrl}/p/2`], prompt: 'Titles' });
  expect(several.json?.nextTool).toEqual({
    name: 'firecrawl_batch_scrape',
    arguments: { urls: [`${siteUrl}/p/1`, `${siteUrl}/p/2`], formats: ['json'], jsonOptions: { prompt: 'Titles' } },
  });
}, 60_000);
