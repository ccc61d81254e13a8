/**
 * Arguments a tool's schema refuses, as an agent gets them through the MCP SDK's client: the v2 error JSON, each
 * issue named by its argument. Before, the SDK's own text: "MCP error -32602: Input validation error: Invalid
 * arguments for tool firecrawl_search: Too small: expected number to be >=1 at limit".
 */
import { Admission } from '@crawlkit/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { createMcpServer } from './mcp-server.js';

const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const client = new Client({ name: 'agent', version: '1.0.0' });

beforeAll(async () => {
  const server = createMcpServer(ck, new Admission(ck, 8, undefined, 0), {});
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await ck.close();
});

/** The JSON of a tool error's text. */
async function refusal(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await client.callTool({ name, arguments: args });
  expect(answer.isError).toBe(true);
  const [content] = answer.content as { type: string; text: string }[];
  return JSON.parse(content!.text) as Record<string, unknown>;
}

it.each([
  ['firecrawl_search', { query: 'words', limit: 0 }, '`limit`: Too small: expected number to be >=1'],
  ['firecrawl_scrape', { url: 'not a url' }, '`url`: Invalid URL'],
  ['firecrawl_scrape', { url: 'https://example.com/', formats: ['markdwn'] }, '`formats[0]`: Invalid option'],
  ['firecrawl_crawl', { url: 'https://example.com/', limit: '3' }, '`limit`: Invalid input: expected number'],
  ['firecrawl_check_crawl_status', {}, '`id`: Invalid input: expected string, received undefined'],
])('%s refuses %j in the v2 shape, naming the argument', async (name, args, told) => {
  const error = await refusal(name, args);
  expect(error).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  expect(error.error).toContain(`Invalid arguments for ${name}: ${told}`);
  expect(error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.any(Array) })]));
});

it('leaves refusals of the engine as they were (the v2 error of the call)', async () => {
  const error = await refusal('firecrawl_scrape', { url: 'ftp://127.0.0.1/x' });
  expect(error).toMatchObject({ success: false, code: 'BAD_REQUEST', error: 'URL uses unsupported protocol' });
});

it('tells the arguments a tool does not take, after the answer of the call that ran without them', async () => {
  // `lockdown` keeps the call off the network: the cache is empty, so it answers its own v2 error.
  const answer = await client.callTool({
    name: 'firecrawl_scrape',
    arguments: { url: 'https://example.com/', lockdown: true, onlyMainContnt: false, limitt: 3 },
  });
  const texts = (answer.content as { type: string; text: string }[]).map((c) => c.text);
  expect(JSON.parse(texts[0]!)).toMatchObject({ success: false });
  // Before: the SDK dropped them without a word (a crawl's misspelt `limitt` ran to the default 10,000 pages).
  expect(texts.at(-1)).toBe(
    'Ignored `onlyMainContnt`, `limitt`: not an argument of this tool, so the call ran without it (check the ' +
      "spelling against the tool's input schema).",
  );
  const plain = await client.callTool({
    name: 'firecrawl_scrape',
    arguments: { url: 'https://example.com/', lockdown: true },
  });
  expect(plain.content).toHaveLength(1);
});
