/**
 * `site:` in a search query, as agents write it (firecrawl-mcp's tool description lists it among the operators):
 * `site:host` keeps the results to that host and its subdomains, `-site:host` leaves it out, the other words are
 * the query; through `ck.search`, the official SDK against `crawlkit serve`, and the MCP tool over stdio, whose
 * answer also tells the filters it cannot apply (firecrawl-mcp's `categories` and `filter`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Firecrawl from '@mendable/firecrawl-js';
import { startServer, type CrawlkitServer } from '@crawlkit/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { CLI, ensureBuilt } from './cli-helpers.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { textPage } from './helpers/text-page.ts';

let site: FixtureServer;
let dir: string;
let ck: Crawlkit;

beforeAll(async () => {
  ensureBuilt();
  site = await startFixtureServer({
    routes: {
      '/harbor': textPage('Harbor', 'The lighthouse keeper logs every ship that passes the harbor wall at night.'),
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'ck-search-site-'));
  ck = new Crawlkit({ storeDir: dir, engine: 'http' });
  // The same page under two hosts: 127.0.0.1 and localhost.
  ok(await ck.scrape({ url: `http://127.0.0.1:${site.port}/harbor` }));
  ok(await ck.scrape({ url: `http://localhost:${site.port}/harbor` }));
});

afterAll(async () => {
  await ck?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const hosts = (results: { url?: string }[] | undefined) => (results ?? []).map((r) => new URL(r.url!).hostname).sort();

describe('site: in a search query', () => {
  it('keeps to the host, leaves one out, and looks for the other words', async () => {
    expect(hosts(ok(await ck.search({ query: 'lighthouse' })).data.web)).toEqual(['127.0.0.1', 'localhost']);
    expect(hosts(ok(await ck.search({ query: 'lighthouse site:localhost' })).data.web)).toEqual(['localhost']);
    expect(hosts(ok(await ck.search({ query: 'site:http://localhost/x lighthouse' })).data.web)).toEqual(['localhost']);
    expect(hosts(ok(await ck.search({ query: 'lighthouse -site:localhost' })).data.web)).toEqual(['127.0.0.1']);
    expect(ok(await ck.search({ query: 'lighthouse site:example.com' })).data.web).toEqual([]);
  });

  it('refuses a query of site: filters only, saying what to add', async () => {
    const answer = await ck.search({ query: 'site:localhost' });
    expect(answer).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((answer as { error: string }).error).toContain('Add the words to look for');
  });

  it("reads it from the official SDK's search() against crawlkit serve", async () => {
    let server: CrawlkitServer | undefined;
    try {
      server = await startServer({ crawlkit: ck, port: 0 });
      const firecrawl = new Firecrawl({ apiKey: 'fc-any', apiUrl: server.url });
      expect(hosts((await firecrawl.search('lighthouse site:127.0.0.1')).web as { url: string }[])).toEqual([
        '127.0.0.1',
      ]);
    } finally {
      await server?.close();
    }
  });

  it('reads it from the firecrawl_search tool as an agent calls it', { timeout: 30_000 }, async () => {
    const client = new Client({ name: 'crawlkit-test', version: '1.0.0' });
    await ck.close();
    try {
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--store', dir, '--engine', 'http'] }),
      );
      const result = await client.callTool({
        name: 'firecrawl_search',
        arguments: { query: 'lighthouse site:localhost', limit: 5 },
      });
      const [content] = result.content as { type: string; text: string }[];
      const answer = JSON.parse(content!.text) as { data: { web: { url: string }[] } };
      expect(hosts(answer.data.web)).toEqual(['localhost']);
      // What it cannot apply, firecrawl-mcp's categories and filter, is told in the answer, not dropped unsaid.
      const narrowed = await client.callTool({
        name: 'firecrawl_search',
        arguments: { query: 'lighthouse', categories: ['developer'], filter: 'lang:en' },
      });
      const [told] = narrowed.content as { type: string; text: string }[];
      const { warning } = JSON.parse(told!.text) as { warning?: string };
      expect(warning).toContain('`categories` are not supported');
      expect(warning).toContain('`filter` is not read');
    } finally {
      await client.close();
      ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    }
  });
});
