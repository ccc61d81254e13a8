/**
 * `crawlkit mcp` called as a model fills firecrawl-mcp's tools: a crawl of more pages than one status page holds,
 * read back through the status tools (an agent has no tool to follow a `next` address); a crawl call the agent
 * cancels, abandons (the host closes the session) or follows by its progress; arguments as a strict function-calling
 * host has a model fill them (`null` for every field not used); a crawl or batch still running, cancelled by a tool.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { CLI, ensureBuilt, startCli } from './cli-helpers.ts';

const PAGES = 130;
let site: Server;
let siteUrl: string;
let client: Client;
let stderr = '';
/** Given the id of each crawl.started webhook event the site receives. */
let crawlStarted: (id: string) => void = () => undefined;
const dir = mkdtempSync(join(tmpdir(), 'ck-mcp-agent-'));

beforeAll(async () => {
  ensureBuilt();
  // Page i links to pages 5i+1 … 5i+5: PAGES pages reached from the root. Under /slow/, each answers in 300 ms.
  site = createServer((req, res) => {
    if (req.url === '/hook') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const event = JSON.parse(body) as { type: string; id: string };
        if (event.type === 'crawl.started') crawlStarted(event.id);
        res.end();
      });
      return;
    }
    const slow = req.url?.startsWith('/slow/') ? '/slow' : '';
    const path = (req.url ?? '').slice(slow.length);
    const i = path === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(path)?.[1] ?? -1);
    if (!(i >= 0 && i < PAGES)) return void res.writeHead(404).end();
    const links = [1, 2, 3, 4, 5].map((k) => i * 5 + k).filter((k) => k < PAGES);
    res.setHeader('content-type', 'text/html');
    const page =
      `<html><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1>` +
      `<p>Page number ${i} of the site, with enough words to be its main content.</p>` +
      `${links.map((k) => `<a href="${slow}/p/${k}">page ${k}</a>`).join(' ')}</main></body></html>`;
    if (slow) setTimeout(() => res.end(page), 300);
    else res.end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--store', dir],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(transport);
}, 300_000);

afterAll(async () => {
  await client?.close();
  await new Promise<void>((resolve) => site?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** Calls a tool as an agent does; its text answer parsed as JSON. */
async function call(name: string, args: Record<string, unknown>) {
  const raw = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text?: string }[];
  };
  const text = raw.content.map((c) => c.text ?? '').join('');
  let json: Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  } catch {
    json = undefined;
  }
  return { isError: raw.isError === true, text, json };
}

it('answers a crawl status with every page, past one status page (firecrawl-mcp follows next)', async () => {
  const crawl = await call('firecrawl_crawl', { url: `${siteUrl}/`, limit: PAGES, sitemap: 'skip' });
  expect(crawl.isError, crawl.text + stderr).toBe(false);
  expect(crawl.json).toMatchObject({ status: 'completed', completed: PAGES });

  const status = await call('firecrawl_check_crawl_status', { id: crawl.json!.id });
  expect(status.json).toMatchObject({ success: true, status: 'completed', completed: PAGES, total: PAGES });
  // Before: the first 100 pages and a `next` of crawlkit://v2/crawl/<id>?skip=100 no tool could read.
  expect(status.json!.data).toHaveLength(PAGES);
  expect(status.json!.next).toBeUndefined();
  const urls = new Set((status.json!.data as { metadata: { sourceURL: string } }[]).map((d) => d.metadata.sourceURL));
  expect(urls.size).toBe(PAGES);
}, 120_000);

it('answers a batch status with every page', async () => {
  const urls = Array.from({ length: 105 }, (_, i) => `${siteUrl}/p/${i}`);
  const batch = await call('firecrawl_batch_scrape', { urls, options: { formats: ['markdown'] } });
  expect(batch.isError, batch.text).toBe(false);
  let status = await call('firecrawl_check_batch_status', { id: batch.json!.id });
  while (status.json!.status === 'scraping') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    status = await call('firecrawl_check_batch_status', { id: batch.json!.id });
  }
  expect(status.json).toMatchObject({ status: 'completed', completed: 105 });
  expect(status.json!.data).toHaveLength(105);
  expect(status.json!.next).toBeUndefined();
}, 120_000);

/** Every optional field of a tool's input schema as `null`, as a host with strict function schemas has it sent. */
async function nullsFor(tool: string, given: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { tools } = await client.listTools();
  const schema = tools.find((t) => t.name === tool)!.inputSchema;
  const fields = Object.keys(schema.properties ?? {}).filter((key) => !(schema.required ?? []).includes(key));
  return { ...Object.fromEntries(fields.map((key) => [key, null])), ...given };
}

it('reads null as an absent field, at the top of the arguments and of scrapeOptions', async () => {
  const scrape = await call('firecrawl_scrape', await nullsFor('firecrawl_scrape', { url: `${siteUrl}/p/3` }));
  // Before: MCP error -32602 "expected boolean, received null at onlyMainContent" (and one line per field).
  expect(scrape.isError, scrape.text).toBe(false);
  expect(scrape.json!.data.markdown).toContain('Page number 3');

  const map = await call('firecrawl_map', await nullsFor('firecrawl_map', { url: `${siteUrl}/` }));
  expect(map.isError, map.text).toBe(false);

  const scrapeOptions = await nullsFor('firecrawl_scrape', { formats: ['links'] });
  delete scrapeOptions.url;
  const crawl = await call(
    'firecrawl_crawl',
    await nullsFor('firecrawl_crawl', { url: `${siteUrl}/p/4`, limit: 2, crawlEntireDomain: true, scrapeOptions }),
  );
  expect(crawl.isError, crawl.text).toBe(false);
  expect(crawl.json).toMatchObject({ status: 'completed', completed: 2 });
  expect(crawl.json!.data[0].links.length).toBeGreaterThan(0);

  const batch = await call('firecrawl_batch_scrape', { urls: [`${siteUrl}/p/5`], options: null });
  expect(batch.isError, batch.text).toBe(false);
}, 60_000);

it('describes the actions, and runs one filled in as a strict host fills it', async () => {
  const { tools } = await client.listTools();
  const scrape = tools.find((t) => t.name === 'firecrawl_scrape')!;
  const actions = scrape.inputSchema.properties!.actions as { anyOf: { items?: { properties: object } }[] };
  const item = actions.anyOf.find((a) => a.items)!.items!;
  // Before: { type: 'object', additionalProperties: {} }, nothing to tell a model what an action is.
  expect(Object.keys(item.properties)).toEqual(expect.arrayContaining(['type', 'selector', 'milliseconds', 'script']));
  expect(JSON.stringify(item.properties)).toContain('executeJavascript');

  const fields = Object.keys(item.properties).filter((key) => key !== 'type');
  const strict = (action: Record<string, unknown>) => ({
    ...Object.fromEntries(fields.map((key) => [key, null])),
    ...action,
  });
  const answer = await call('firecrawl_scrape', {
    url: `${siteUrl}/p/6`,
    formats: ['markdown'],
    actions: [
      strict({ type: 'wait', milliseconds: 10 }),
      strict({ type: 'executeJavascript', script: 'document.title' }),
    ],
  });
  // Before: BAD_REQUEST "Unrecognized key in body ... (unknown in actions[0]: all)".
  expect(answer.isError, answer.text).toBe(false);
  expect(answer.json!.data.actions.javascriptReturns).toEqual([{ type: 'string', value: 'Page 6' }]);
}, 60_000);

/** Calls firecrawl_crawl on a slow crawl of 6 pages with `on`; the progress notifications it was told. */
/**
 * The progress of a firecrawl_crawl call as the server sent it: every message the client's transport received, read
 * before the SDK's client handles it. The client drops a progress notification that arrives in one read with the
 * call's answer (it forgets the call's progress handler as it reads the answer, and handles notifications a
 * microtask later), so what its `onprogress` sees of the last page depends on how the two were read, not on the server.
 */
async function crawlProgress(on: Client): Promise<{ progress: number; total?: number }[]> {
  const transport = on.transport!;
  const received = transport.onmessage!;
  const seen: { progress: number; total?: number }[] = [];
  let answered = false;
  let late = 0;
  transport.onmessage = (message, extra) => {
    const m = message as { method?: string; params?: { progress: number; total?: number }; result?: unknown };
    if (m.method === 'notifications/progress' && m.params) {
      // Told after the answer: too late for any client.
      if (answered) late++;
      seen.push({ progress: m.params.progress, ...(m.params.total === undefined ? {} : { total: m.params.total }) });
    }
    if (m.result !== undefined) answered = true;
    received(message, extra);
  };
  try {
    const answer = await on.callTool(
      {
        name: 'firecrawl_crawl',
        arguments: {
          url: `${siteUrl}/slow/`,
          limit: 6,
          maxConcurrency: 1,
          sitemap: 'skip',
          scrapeOptions: { maxAge: 0 },
        },
      },
      undefined,
      // A progress token is sent only with a handler.
      { onprogress: () => undefined },
    );
    expect(answer.isError).toBeFalsy();
  } finally {
    transport.onmessage = received;
  }
  expect(late).toBe(0);
  return seen;
}

it("tells a firecrawl_crawl call's progress, page by page, over stdio and streamable HTTP", async () => {
  // A store of its own: its start is not the stdio server's crawl's contention for the store.
  const http = startCli(['mcp', '--http', '--port', '0', '--store', join(dir, 'over-http')], { cwd: dir });
  try {
    const url = await new Promise<string>((resolve) => {
      let text = '';
      http.stderr!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const found = /http:\/\/\S+\/mcp/.exec(text);
        if (found) resolve(found[0]);
      });
    });
    const overHttp = new Client({ name: 'agent', version: '1.0.0' });
    await overHttp.connect(new StreamableHTTPClientTransport(new URL(url)));
    // Before: none on either (a host that resets its timeout on progress cancelled a crawl longer than its timeout).
    for (const [over, seen] of [
      ['stdio', await crawlProgress(client)],
      ['streamable HTTP', await crawlProgress(overHttp)],
    ] as const) {
      expect(seen.length, `${over}: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(2);
      expect(seen.at(-1)).toEqual({ progress: 6, total: 6 });
      const progress = seen.map((p) => p.progress);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    }
    await overHttp.close();
  } finally {
    http.kill('SIGTERM');
    await http.result;
  }
}, 60_000);

it('answers screenshots and PDFs as image and resource content, not base64 in the JSON', async () => {
  const raw = (await client.callTool({
    name: 'firecrawl_scrape',
    arguments: {
      url: `${siteUrl}/p/7`,
      formats: ['markdown', 'screenshot'],
      actions: [{ type: 'pdf' }],
    },
  })) as {
    isError?: boolean;
    content: { type: string; text?: string; data?: string; mimeType?: string; resource?: { blob?: string } }[];
  };
  expect(raw.isError, raw.content[0]?.text).toBeFalsy();
  const [text, image, pdf] = raw.content;
  // Before: one text block, the screenshot and the PDF in it as data URLs (tens of KB of base64 for a model to read).
  expect(text!.text).not.toContain(';base64,');
  const json = JSON.parse(text!.text!) as { data: { screenshot: string; actions: { pdfs: string[] } } };
  expect(json.data.screenshot).toBe('(image/png attachment 1, after this JSON)');
  expect(json.data.actions.pdfs).toEqual(['(application/pdf attachment 2, after this JSON)']);
  expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
  expect(Buffer.from(image!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  expect(pdf).toMatchObject({ type: 'resource', resource: { mimeType: 'application/pdf' } });
  expect(Buffer.from(pdf!.resource!.blob!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
}, 60_000);

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
  const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
  try {
    let status = await ck.getCrawlStatus(id);
    while (status.success && status.status === 'scraping') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await ck.getCrawlStatus(id);
    }
    expect(status).toMatchObject({ success: true, status: 'cancelled' });
  } finally {
    await ck.close();
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
