/**
 * `crawlkit mcp`'s tool schemas as a host reads them (`tools/list` through the MCP SDK's client over stdio): every
 * field the engine gives a default when it is left out says that default in its description, at the top of the field
 * where hosts show it, and the value said is the engine's own (its v2 request schemas, parsed with the field left out).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { searchRequestSchema } from '../packages/crawlkit/src/search/request.ts';
import { crawlRequestSchema, mapRequestSchema } from '../packages/crawlkit/src/v2/jobs.ts';
import { scrapeRequestSchema } from '../packages/crawlkit/src/v2/scrape-options.ts';
import { DEFAULT_TIMEOUT_MS } from '../packages/fetcher/src/http/http-engine.ts';
import { CLI, ensureBuilt } from './cli-helpers.ts';

const URL = 'https://example.com/';
/** What the engine takes for each field a request leaves out, by tool. */
const ENGINE: Record<string, Record<string, unknown>> = {
  firecrawl_scrape: scrapeRequestSchema.parse({ url: URL }),
  firecrawl_map: mapRequestSchema.parse({ url: URL }),
  firecrawl_search: searchRequestSchema.parse({ query: 'words' }),
  firecrawl_crawl: crawlRequestSchema.parse({ url: URL }),
};
/** Engine fields an agent cannot set through the tool or need not be told (the tool sets them, or they are empty). */
const UNTOLD = new Set(['url', 'query', 'includePaths', 'excludePaths', 'scrapeOptions', 'zeroDataRetention']);

let client: Client;
const dir = mkdtempSync(join(tmpdir(), 'ck-mcp-schemas-'));

beforeAll(async () => {
  ensureBuilt();
  client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--store', dir] }));
}, 300_000);

afterAll(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A format or parser as a tool names it: `{ type: 'markdown' }` is `'markdown'`. */
const asTool = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map((item: unknown) =>
        typeof item === 'object' && item !== null && Object.keys(item).length === 1 && 'type' in item
          ? item.type
          : item,
      )
    : value;

it("says each field's default in its description, the engine's own", async () => {
  const { tools } = await client.listTools();
  const unsaid: string[] = [];
  const wrong: string[] = [];
  for (const [tool, engine] of Object.entries(ENGINE)) {
    const properties = tools.find((t) => t.name === tool)!.inputSchema.properties as Record<
      string,
      { description?: string }
    >;
    for (const [field, value] of Object.entries(engine)) {
      if (UNTOLD.has(field) || !(field in properties) || value === undefined) continue;
      const said = /Default: (.+)\.$/.exec(properties[field]!.description ?? '')?.[1];
      if (said === undefined) unsaid.push(`${tool}.${field}`);
      else if (JSON.stringify(JSON.parse(said)) !== JSON.stringify(asTool(value))) {
        wrong.push(`${tool}.${field}: says ${said}, engine ${JSON.stringify(value)}`);
      }
    }
  }
  // Before: no field said its default (a crawl left without a limit runs to 10,000 pages, in one waiting call).
  expect(unsaid).toEqual([]);
  expect(wrong).toEqual([]);
});

it("says the scrape's timeout, which the engine's options give (none of the request's)", async () => {
  const { tools } = await client.listTools();
  const properties = tools.find((t) => t.name === 'firecrawl_scrape')!.inputSchema.properties as Record<
    string,
    { description?: string }
  >;
  // Before: "Milliseconds the scrape may take." (a page that hangs answered SCRAPE_TIMEOUT after 30000 ms).
  expect(properties.timeout!.description).toContain(`Default: the engine's timeoutMs, ${DEFAULT_TIMEOUT_MS} unless`);
});

it('describes the fields whose name does not say what crawlkit does with them', async () => {
  const { tools } = await client.listTools();
  const described = (tool: string, field: string) =>
    (tools.find((t) => t.name === tool)!.inputSchema.properties as Record<string, { description?: string }>)[field]!
      .description ?? '';
  // Before: none of them had a description.
  expect(described('firecrawl_crawl', 'prompt')).toContain('language model');
  expect(described('firecrawl_crawl', 'webhook')).toContain("crawl's events");
  expect(described('firecrawl_map', 'search')).toContain('ordered by');
  expect(described('firecrawl_search', 'includeDomains')).toContain('Only results from these domains');
  expect(described('firecrawl_search', 'excludeDomains')).toContain('No results from these domains');
});

it("says what a crawl's delay and maxConcurrency are when left out (no request default: the engine's)", async () => {
  const { tools } = await client.listTools();
  const properties = tools.find((t) => t.name === 'firecrawl_crawl')!.inputSchema.properties as Record<
    string,
    { description?: string }
  >;
  // Before: "Seconds between two requests to the site." and "Pages fetched at once at most.", nothing more.
  expect(properties.delay!.description).toContain('Default: none (a robots.txt Crawl-delay is kept');
  expect(properties.maxConcurrency!.description).toContain("Default: the server's concurrency");
});
