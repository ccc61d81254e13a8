/**
 * `crawlkit mcp` called as a model fills firecrawl-mcp's tools: a crawl call the agent cancels or abandons (the host
 * closes the session); a crawl or batch still running, cancelled by a tool.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { join } from 'node:path';

import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Crawlkit } from 'crawlkit';
import { expect, it } from 'vitest';

import { CLI, startCli } from './cli-helpers.ts';
import { useMcpAgent } from './helpers/mcp-agent.ts';
import { mcpUrlOf } from './helpers/mcp-http.ts';

let siteUrl: string;
let client: Client;
/** Given the id of each crawl.started webhook event the site receives. */
let crawlStarted: (id: string) => void = () => undefined;
const { dir } = useMcpAgent({
  started: (agent) => ({ siteUrl, client } = agent),
  crawlStarted: (id) => crawlStarted(id),
  stderr: () => undefined,
});

/** The crawl `id` of the store in `storeDir` once it has ended, read by another engine on the same store. */
async function endOf(storeDir: string, id: string) {
  const ck = new Crawlkit({ storeDir, engine: 'http' });
  try {
    return await ck.waitForJob(id, { documents: false, signal: AbortSignal.timeout(30_000) });
  } finally {
    await ck.close();
  }
}

it('cancels the crawl of a firecrawl_crawl call the agent cancels (it never learnt the id)', async () => {
  const started = new Promise<string>((resolve) => (crawlStarted = resolve));
  const aborter = new AbortController();
  const answer = client.callTool(
    {
      name: 'firecrawl_crawl',
      arguments: { url: `${siteUrl}/slow/`, limit: 60, maxConcurrency: 2, sitemap: 'skip', webhook: `${siteUrl}/hook` },
    },
    undefined,
    { signal: aborter.signal },
  );
  const id = await started;
  aborter.abort();
  await expect(answer).rejects.toThrow(/abort/i);

  // Another engine on the same store reads the crawl: before, it went on to its 60 pages (completed, 6 s).
  expect(await endOf(dir, id)).toMatchObject({ success: true, status: 'cancelled' });
}, 60_000);

it("cancels the crawl of a firecrawl_crawl call its client cancels over streamable HTTP, and no other client's", async () => {
  const store = join(dir, 'over-http');
  const http = startCli(['mcp', '--http', '--port', '0', '--store', store], { cwd: dir });
  const connected: Client[] = [];
  try {
    const url = await mcpUrlOf(http);
    // A browser's client reads the id only when the answer exposes it (the MCP inspector's case).
    const initialize = await fetch(url, {
      method: 'POST',
      headers: {
        origin: 'http://127.0.0.1:6274',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'inspector', version: '1' } },
      }),
    });
    await initialize.body?.cancel();
    expect(initialize.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(initialize.headers.get('access-control-expose-headers')).toBe('mcp-session-id');
    const connect = async () => {
      const client = new Client({ name: 'agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      connected.push(client);
      return client;
    };
    const [a, b] = [await connect(), await connect()];
    const started = new Promise<string>((resolve) => (crawlStarted = resolve));
    const aborter = new AbortController();
    const cancelled = a.callTool(
      {
        name: 'firecrawl_crawl',
        arguments: {
          url: `${siteUrl}/slow/`,
          limit: 60,
          maxConcurrency: 2,
          sitemap: 'skip',
          webhook: `${siteUrl}/hook`,
        },
      },
      undefined,
      { signal: aborter.signal },
    );
    const id = await started;
    // The other client's first call has the same JSON-RPC id as the one cancelled: it must run on.
    const other = b.callTool({
      name: 'firecrawl_crawl',
      arguments: { url: `${siteUrl}/slow/p/3`, limit: 6, maxConcurrency: 2, sitemap: 'skip', maxAge: 0 },
    }) as Promise<{ isError?: boolean; content: { text: string }[] }>;
    aborter.abort();
    await expect(cancelled).rejects.toThrow(/abort/i);
    const answer = await other;
    expect(answer.isError).toBeFalsy();
    expect(JSON.parse(answer.content[0]!.text)).toMatchObject({ success: true, status: 'completed' });

    // Before: the SDK client's cancellation (a POST of its own) reached a fresh stateless server that knew no such
    // call; the crawl went on to its 60 pages.
    expect(await endOf(store, id)).toMatchObject({ success: true, status: 'cancelled' });
  } finally {
    for (const client of connected) await client.close();
    http.kill('SIGTERM');
    await http.result;
  }
}, 60_000);

it('cancels the crawl of a firecrawl_crawl call under way when the host closes the session (stdin)', async () => {
  const started = new Promise<string>((resolve) => (crawlStarted = resolve));
  const host = new Client({ name: 'agent', version: '1.0.0' });
  await host.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--store', dir] }));
  const answer = host.callTool({
    name: 'firecrawl_crawl',
    arguments: { url: `${siteUrl}/slow/`, limit: 60, maxConcurrency: 2, sitemap: 'skip', webhook: `${siteUrl}/hook` },
  });
  const id = await started;
  // The host quits: it closes the server's input, and the server exits.
  await host.close();
  await expect(answer).rejects.toThrow(/closed/i);

  // Before: left running in the store, resumed unseen by the next `crawlkit mcp` on it (no agent knew its id).
  const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
  try {
    expect(await ck.getCrawlStatus(id)).toMatchObject({ success: true, status: 'cancelled' });
  } finally {
    await ck.close();
  }
}, 60_000);

it('answers a crawl still running after --crawl-wait-ms with its id, to follow with the status tool', async () => {
  const host = new Client({ name: 'agent', version: '1.0.0' });
  const args = [CLI, 'mcp', '--store', dir, '--crawl-wait-ms', '1000'];
  await host.connect(new StdioClientTransport({ command: process.execPath, args }));
  try {
    const asked = Date.now();
    const raw = (await host.callTool({
      name: 'firecrawl_crawl',
      arguments: { url: `${siteUrl}/slow/`, limit: 60, maxConcurrency: 2, sitemap: 'skip' },
    })) as { isError?: boolean; content: { text: string }[] };
    // Before: the call waited for all 60 pages (9 s here; a host on the MCP SDK cancels it, and the crawl, at 60 s).
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(raw.isError).toBeFalsy();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const answer = JSON.parse(raw.content[0]!.text) as Record<string, any>;
    expect(answer).toMatchObject({ success: true, status: 'scraping' });
    expect(answer.message).toContain('still running');
    expect(answer.nextTool).toEqual({
      name: 'firecrawl_check_crawl_status',
      arguments: { id: answer.id, skip: answer.data.length },
    });
    // Left running for the agent to follow.
    const status = (await host.callTool({
      name: 'firecrawl_check_crawl_status',
      arguments: answer.nextTool.arguments,
    })) as {
      content: { text: string }[];
    };
    expect(JSON.parse(status.content[0]!.text)).toMatchObject({ success: true, status: 'scraping' });
  } finally {
    await host.close();
  }
}, 60_000);

it('cancels a crawl answered still running, and a batch, by their ids (firecrawl_cancel_crawl, _batch)', async () => {
  const host = new Client({ name: 'agent', version: '1.0.0' });
  const args = [CLI, 'mcp', '--store', dir, '--crawl-wait-ms', '500'];
  await host.connect(new StdioClientTransport({ command: process.execPath, args }));
  const on = async (name: string, args: Record<string, unknown>) => {
    const raw = (await host.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { isError: raw.isError === true, json: JSON.parse(raw.content[0]!.text) as Record<string, any> };
  };
  try {
    const crawl = await on('firecrawl_crawl', {
      url: `${siteUrl}/slow/`,
      limit: 60,
      maxConcurrency: 2,
      sitemap: 'skip',
    });
    expect(crawl.json).toMatchObject({ success: true, status: 'scraping' });
    expect(crawl.json.message).toContain('firecrawl_cancel_crawl');
    const { id } = crawl.json as { id: string };
    // Before: "Tool firecrawl_cancel_crawl not found"; the crawl ran on to its 60 pages, nothing an agent could stop.
    const cancelled = await on('firecrawl_cancel_crawl', { id });
    expect(cancelled).toEqual({
      isError: false,
      json: {
        status: 'cancelled',
        message: expect.stringContaining('firecrawl_check_crawl_status') as string,
        nextTool: { name: 'firecrawl_check_crawl_status', arguments: { id } },
      },
    });
    const status = await on('firecrawl_check_crawl_status', { id });
    expect(status.json).toMatchObject({ success: true, status: 'cancelled' });
    expect(status.json.completed).toBeLessThan(60);
    // Cancelled again: the same answer (the tool says it is idempotent).
    expect(await on('firecrawl_cancel_crawl', { id })).toMatchObject({ isError: false, json: { status: 'cancelled' } });
    expect(await on('firecrawl_cancel_crawl', { id: '0190a5b2-0000-7000-8000-000000000000' })).toMatchObject({
      isError: true,
      json: { success: false, code: 'JOB_NOT_FOUND' },
    });

    const urls = Array.from({ length: 40 }, (_, i) => `${siteUrl}/slow/p/${i}`);
    const batch = await on('firecrawl_batch_scrape', { urls, options: { maxAge: 0 } });
    // Before: only the id and a `crawlkit://` URL no agent can call (firecrawl-mcp 2.x named the status tool).
    expect(batch.json).toMatchObject({
      success: true,
      message: expect.stringContaining('firecrawl_check_batch_status') as string,
      nextTool: { name: 'firecrawl_check_batch_status', arguments: { id: batch.json.id as string } },
    });
    const stopped = await on('firecrawl_cancel_batch', { id: batch.json.id });
    expect(stopped.json).toMatchObject({
      status: 'cancelled',
      nextTool: { name: 'firecrawl_check_batch_status', arguments: { id: batch.json.id } },
    });
    const batchStatus = await on('firecrawl_check_batch_status', { id: batch.json.id });
    expect(batchStatus.json).toMatchObject({ success: true, status: 'cancelled' });
    expect(batchStatus.json.completed).toBeLessThan(40);
    // A crawl's id is not a batch's: each tool cancels its own kind.
    expect((await on('firecrawl_cancel_batch', { id })).json).toMatchObject({ code: 'JOB_NOT_FOUND' });
  } finally {
    await host.close();
  }
}, 60_000);
