/**
 * `crawlkit mcp` called as a model fills firecrawl-mcp's tools: a crawl of more pages than one status page holds,
 * read back through the status tools (an agent has no tool to follow a `next` address); a crawl call followed by its
 * progress; arguments as a strict function-calling host has a model fill them (`null` for every field not used). A
 * call the agent cancels or abandons, and jobs cancelled by a tool: mcp-agent-cancel.test.ts.
 */
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, it } from 'vitest';

import { startCli } from './cli-helpers.ts';
import { PAGES, useMcpAgent } from './helpers/mcp-agent.ts';
import { mcpUrlOf } from './helpers/mcp-http.ts';

let siteUrl: string;
let client: Client;
let stderr = '';
const { dir, call } = useMcpAgent({
  started: (agent) => ({ siteUrl, client } = agent),
  crawlStarted: () => undefined,
  stderr: (chunk) => (stderr += chunk),
});

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
  const messages: string[] = [];
  let answered = false;
  let late = 0;
  transport.onmessage = (message, extra) => {
    const m = message as {
      method?: string;
      params?: { progress: number; total?: number; message?: string };
      result?: unknown;
    };
    if (m.method === 'notifications/progress' && m.params) {
      // Told after the answer: too late for any client.
      if (answered) late++;
      messages.push(m.params.message ?? '');
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
    // Each names the crawl, the first before any page (before: `3 of 6 pages`; a client that lost the call, its
    // server killed, had no id to read the crawl by)
    const { id } = JSON.parse((answer.content as { text: string }[])[0]!.text) as { id: string };
    expect(messages[0]).toBe(`crawl ${id} started (firecrawl_check_crawl_status reads it by this id)`);
    expect(seen[0]).toEqual({ progress: 0 });
    for (const text of messages) expect(text).toContain(`crawl ${id}`);
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
    const url = await mcpUrlOf(http);
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
