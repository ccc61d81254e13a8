/**
 * `crawlkit mcp` driven by the MCP SDK's client as an agent host drives it: over stdio and over streamable HTTP, the
 * tools listed, then each one called against a local docs site; webhooks signed with --webhook-secret; the HTTP
 * transport under serve's keys, credit limit and CORS rule (a browser's preflight). And `firecrawl-mcp` (npm), unchanged, searching through `crawlkit serve`.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startServer } from '@crawlkit/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Crawlkit, NAMED_FORMATS } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, startCli } from './cli-helpers.ts';
import { startReceiver, until } from './helpers-batch.ts';
import { ok } from './helpers/crawl-site-run.ts';
import { connectMcpStdio, mcpUrlOf } from './helpers/mcp-http.ts';

const DOCS = fileURLToPath(new URL('../fixtures/docs-site', import.meta.url));
const FIRECRAWL_MCP = fileURLToPath(new URL('../node_modules/firecrawl-mcp/dist/index.js', import.meta.url));

const TOOLS = [
  'firecrawl_scrape',
  'firecrawl_map',
  'firecrawl_search',
  'firecrawl_crawl',
  'firecrawl_check_crawl_status',
  'firecrawl_cancel_crawl',
  'firecrawl_batch_scrape',
  'firecrawl_check_batch_status',
  'firecrawl_cancel_batch',
  'firecrawl_credit_usage',
];
const notMonitor = (name: string) => !name.startsWith('firecrawl_monitor_');

let site: FixtureServer;
const dirs: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  site = await startFixtureServer({
    root: DOCS,
    routes: {
      '/raw.html': (_req, res) => {
        res.setHeader('content-type', 'text/html');
        res.end(
          '<html><body><main><h1>Notes</h1><p>An <u>underlined</u> word, long enough to be kept.</p>' +
            '<figure><img src="/plot.png" alt="Plot"><figcaption>Fig. 1: the plot.</figcaption></figure>' +
            '<iframe src="https://player.example.org/v/7" title="The plot, animated"></iframe></main></body></html>',
        );
      },
      '/job.html': (_req, res) => {
        res.setHeader('content-type', 'text/html');
        res.end(
          '<html><head><script type="application/ld+json">' +
            JSON.stringify({ '@type': 'JobPosting', title: 'Support Engineer', datePosted: '2026-11-30' }) +
            '</script></head><body><main><h1>Support Engineer</h1><p>Answer users of the docs.</p></main></body></html>',
        );
      },
    },
  });
}, 300_000);

afterAll(async () => {
  await site?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ck-mcp-'));
  dirs.push(dir);
  return dir;
}

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text?: string }[];
}

/** Calls a tool; its answer's text parsed as JSON (the tools answer JSON text). */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const raw = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = raw.content.map((c) => c.text ?? '').join('');
  return { isError: raw.isError === true, json: JSON.parse(text) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const WEBHOOK_SECRET = 'whsec-mcp';

describe('crawlkit mcp over stdio', () => {
  let client: Client;
  let stderr = () => '';
  beforeAll(async () => {
    ({ client, stderr } = await connectMcpStdio([
      '--store',
      tempDir(),
      '--engine',
      'http',
      '--webhook-secret',
      WEBHOOK_SECRET,
    ]));
  });
  afterAll(async () => {
    await client?.close();
  });

  it("lists firecrawl-mcp's tools with their input schemas", async () => {
    const { tools } = await client.listTools();
    // firecrawl_parse and the eight monitor tools: test/mcp-parse-monitor.test.ts.
    expect(tools.map((t) => t.name).filter(notMonitor)).toEqual([...TOOLS, 'firecrawl_parse']);
    const search = tools.find((t) => t.name === 'firecrawl_search')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['query', 'limit', 'tbs', 'includeDomains', 'excludeDomains', 'sources', 'scrapeOptions']),
    );
    expect(search.inputSchema.required).toEqual(['query']);
  });

  it("offers every format scrape() takes by name, crawlkit's own product and jobPosting among them", async () => {
    const { tools } = await client.listTools();
    const scrape = tools.find((t) => t.name === 'firecrawl_scrape')!;
    const [formats] = (scrape.inputSchema.properties?.['formats'] as { anyOf: { items: { enum: string[] } }[] }).anyOf;
    // Before: a copy of firecrawl-mcp's list, without product and jobPosting.
    expect(formats!.items.enum).toEqual([...NAMED_FORMATS, 'query']);
    expect(formats!.items.enum).toEqual(expect.arrayContaining(['markdown', 'json', 'product', 'jobPosting', 'query']));
    const job = await call(client, 'firecrawl_scrape', { url: `${site.url}/job.html`, formats: ['jobPosting'] });
    expect(job.json.data.jobPosting).toEqual({ title: 'Support Engineer', datePosted: '2026-11-30' });
    const none = await call(client, 'firecrawl_scrape', { url: `${site.url}/job.html`, formats: ['product'] });
    expect(none.json.data).not.toHaveProperty('product');
    expect(none.json.data.warning).toContain('No product was found on this page');
  });

  it('calls each tool: crawl, status, search, scrape, map, batch, batch status, credit usage', async () => {
    const crawl = await call(client, 'firecrawl_crawl', { url: `${site.url}/`, limit: 10, sitemap: 'skip' });
    expect(crawl.isError, JSON.stringify(crawl.json) + stderr()).toBe(false);
    expect(crawl.json).toMatchObject({ success: true, status: 'completed' });
    expect(crawl.json.data).toHaveLength(8);
    const crawlId = crawl.json.id as string;

    const status = await call(client, 'firecrawl_check_crawl_status', { id: crawlId });
    expect(status.json).toMatchObject({ success: true, status: 'completed', completed: 8 });

    const search = await call(client, 'firecrawl_search', { query: '"dead letter queue"' });
    expect(search.json.data.web.map((r: { url: string }) => new URL(r.url).pathname)).toEqual(['/guide/retries.html']);

    const scrape = await call(client, 'firecrawl_scrape', {
      url: `${site.url}/guide/faq.html`,
      formats: ['markdown', 'links'],
      onlyMainContent: false,
    });
    expect(scrape.json.data.markdown).toContain('SQLite file');
    expect(scrape.json.data.links.length).toBeGreaterThan(0);

    const args = { url: `${site.url}/raw.html`, formats: ['markdown'] };
    const plain = await call(client, 'firecrawl_scrape', args);
    const raw = await call(client, 'firecrawl_scrape', { ...args, markdownOptions: { rawHtml: true } });
    expect(plain.json.data.markdown).toContain('An underlined word');
    expect(raw.json.data.markdown).toContain('An <u>underlined</u> word');
    expect(plain.json.data.markdown).not.toContain('Fig. 1');
    const captions = await call(client, 'firecrawl_scrape', { ...args, markdownOptions: { captions: true } });
    expect(captions.json.data.markdown).toContain('\n\n*Fig. 1: the plot.*');
    expect(plain.json.data.markdown).not.toContain('The plot, animated');
    const embeds = await call(client, 'firecrawl_scrape', { ...args, markdownOptions: { embeds: true } });
    expect(embeds.json.data.markdown).toContain('\n\n[The plot, animated](https://player.example.org/v/7)');

    const map = await call(client, 'firecrawl_map', { url: `${site.url}/`, sitemap: 'skip' });
    expect(map.json.links.length).toBeGreaterThanOrEqual(8);

    const batch = await call(client, 'firecrawl_batch_scrape', {
      urls: [`${site.url}/guide/logging.html`, `${site.url}/guide/proxies.html`],
      options: { formats: ['markdown'] },
    });
    expect(batch.json).toMatchObject({ success: true });
    let batchStatus = await call(client, 'firecrawl_check_batch_status', { id: batch.json.id });
    for (let i = 0; i < 200 && batchStatus.json.status === 'scraping'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      batchStatus = await call(client, 'firecrawl_check_batch_status', { id: batch.json.id });
    }
    expect(batchStatus.json).toMatchObject({ status: 'completed', completed: 2 });

    const usage = await call(client, 'firecrawl_credit_usage');
    expect(usage.json.data.creditsUsed).toBeGreaterThanOrEqual(8 + 2 + 1 + 2);
  });

  it('answers a bad call with the v2 error as a tool error', async () => {
    const bad = await call(client, 'firecrawl_search', {
      query: 'x',
      includeDomains: ['a.com'],
      excludeDomains: ['b.com'],
    });
    expect(bad.isError).toBe(true);
    expect(bad.json).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });

  it('signs the webhooks of the crawls it starts with --webhook-secret, as serve does', async () => {
    const hook = await startReceiver();
    try {
      const crawl = await call(client, 'firecrawl_crawl', {
        url: `${site.url}/guide/installation.html`,
        limit: 1,
        sitemap: 'skip',
        webhook: hook.url,
        webhookHeaders: { 'x-agent': 'mcp-test' },
      });
      expect(crawl.json, stderr()).toMatchObject({ success: true, status: 'completed' });
      await until(() => hook.events.some((e) => e.payload.type === 'crawl.completed'), 30_000);
      expect(hook.events.map((e) => e.payload.type)).toEqual(
        expect.arrayContaining(['crawl.started', 'crawl.page', 'crawl.completed']),
      );
      for (const event of hook.events) {
        const expected = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(event.raw).digest('hex')}`;
        expect(event.headers['x-firecrawl-signature']).toBe(expected);
        expect(event.headers['x-agent']).toBe('mcp-test');
      }
    } finally {
      await hook.close();
    }
  });
});

describe('crawlkit mcp over streamable HTTP', () => {
  let cli: ReturnType<typeof startCli>;
  let url: string;
  beforeAll(async () => {
    cli = startCli(
      [
        'mcp',
        '--http',
        '--port',
        '0',
        '--api-key',
        'k-1',
        '--credit-limit',
        '3',
        '--store',
        tempDir(),
        '--engine',
        'http',
      ],
      { cwd: tempDir() },
    );
    url = await mcpUrlOf(cli);
  });
  afterAll(async () => {
    cli.kill('SIGTERM');
    expect((await cli.result).code).toBe(0);
  });

  const connect = async (key?: string) => {
    const client = new Client({ name: 'crawlkit-test', version: '1.0.0' });
    const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    return client;
  };

  it('refuses a client without the key, as serve does', async () => {
    await expect(connect()).rejects.toThrow(/401|Unauthorized/);
    await expect(connect('k-2')).rejects.toThrow(/Invalid token|401/);
  });

  it("answers a browser's CORS preflight as serve does, before the key, and refuses other origins", async () => {
    const preflight = (origin: string) =>
      fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });
    // The MCP inspector's page, on loopback (the default rule).
    const allowed = await preflight('http://localhost:6274');
    expect(allowed.status).toBe(204);
    expect(Object.fromEntries(allowed.headers)).toMatchObject({
      'access-control-allow-origin': 'http://localhost:6274',
      'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    expect((await preflight('https://evil.example')).status).toBe(403);

    // The call after the preflight carries the origin's permission too.
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        origin: 'http://localhost:6274',
        authorization: 'Bearer k-1',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
      }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(((await answer.json()) as { result: { serverInfo: unknown } }).result.serverInfo).toBeDefined();
  });

  it('lists and calls the tools under the credit limit', async () => {
    const client = await connect('k-1');
    try {
      // No firecrawl_parse without --parse-root: a client over HTTP is not given this machine's files.
      expect((await client.listTools()).tools.map((t) => t.name).filter(notMonitor)).toEqual(TOOLS);
      const scrape = await call(client, 'firecrawl_scrape', { url: `${site.url}/guide/installation.html` });
      expect(scrape.json.data.markdown).toContain('npm install -g harbor');
      const search = await call(client, 'firecrawl_search', { query: 'Debian package', limit: 1 });
      expect(search.json.data.web[0].url).toBe(`${site.url}/guide/installation.html`);
      // 1 for the page, 2 for the search: the limit of 3 is spent.
      const refused = await call(client, 'firecrawl_search', { query: 'harbor' });
      expect(refused).toMatchObject({ isError: true, json: { code: 'INSUFFICIENT_CREDITS' } });
    } finally {
      await client.close();
    }
  });
});

describe('firecrawl-mcp against crawlkit serve', () => {
  it('searches the stored pages with firecrawl_search, unchanged', async () => {
    const dir = tempDir();
    const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    const server = await startServer({ crawlkit: ck, port: 0, apiKeys: ['fc-local'] });
    const client = new Client({ name: 'crawlkit-test', version: '1.0.0' });
    try {
      ok(await ck.waitForJob(ok(await ck.crawl({ url: `${site.url}/`, limit: 10 })).id));
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [FIRECRAWL_MCP],
          env: { PATH: process.env.PATH ?? '', FIRECRAWL_API_URL: server.url, FIRECRAWL_API_KEY: 'fc-local' },
          stderr: 'pipe',
        }),
      );
      const search = await call(client, 'firecrawl_search', { query: 'logrotate SIGHUP', limit: 3 });
      expect(search.isError, JSON.stringify(search.json)).toBe(false);
      expect(search.json.data.web[0].url).toBe(`${site.url}/guide/logging.html`);
    } finally {
      await client.close();
      await server.close();
      await ck.close();
    }
  });
});
