/**
 * `firecrawl-mcp` (npm) over stdio, driven by the MCP SDK's client as an agent host drives it, against `crawlkit
 * serve`: every tool with a local meaning, pointed at the server by `FIRECRAWL_API_URL` and `FIRECRAWL_API_KEY`
 * alone, under the network guard. The model behind `json` and `query` is the one the server's environment names.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startReceiver, until } from '../helpers-batch.ts';
import { startClientStack, type ClientStack } from './harness.ts';
import { FIRECRAWL_MCP } from './run-client.ts';

let stack: ClientStack;
let client: Client;
let mcpLog = '';

beforeAll(async () => {
  stack = await startClientStack();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIRECRAWL_MCP],
    env: { PATH: process.env.PATH ?? '', ...stack.clientEnv() },
    cwd: stack.dir,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (mcpLog += chunk.toString()));
  client = new Client({ name: 'crawlkit-test', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await stack?.close();
});

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text?: string }[];
}

/** Calls a tool; its answer's text parsed as JSON (the tools answer JSON text). */
async function call(name: string, args: Record<string, unknown>): Promise<{ raw: ToolAnswer; json: unknown }> {
  const raw = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = raw.content.map((c) => c.text ?? '').join('');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { raw, json };
}

describe('firecrawl-mcp tools against crawlkit serve', () => {
  it('lists the scrape, map, crawl, status and credit tools', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of [
      'firecrawl_scrape',
      'firecrawl_map',
      'firecrawl_crawl',
      'firecrawl_check_crawl_status',
      'firecrawl_credit_usage',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('firecrawl_scrape with json, the way the tool recommends, through the model of the environment', async () => {
    const { raw, json } = await call('firecrawl_scrape', {
      url: stack.page('/shop/plane.html'),
      formats: ['json'],
      jsonOptions: {
        prompt: 'The product on this page',
        schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'string' } } },
      },
    });
    expect(raw.isError, JSON.stringify(json)).toBeFalsy();
    const doc = json as { json: { name: string; price: string }; metadata: { sourceURL: string } };
    expect(doc.json.name).toBe('No. 4 Smoothing Plane');
    expect(doc.json.price).toContain('$129.00');
    expect(doc.metadata.sourceURL).toBe(stack.page('/shop/plane.html'));
  });

  it('firecrawl_scrape with query answers from the page', async () => {
    const { raw, json } = await call('firecrawl_scrape', {
      url: stack.page('/articles/first-post.html'),
      formats: ['query'],
      queryOptions: { prompt: 'What angle is the micro-bevel honed at?' },
    });
    expect(raw.isError, JSON.stringify(json)).toBeFalsy();
    expect((json as { answer: string }).answer).toMatch(/micro-bevel|30 degrees/);
  });

  it('firecrawl_scrape with markdown and onlyMainContent', async () => {
    const { json } = await call('firecrawl_scrape', {
      url: stack.page('/articles/first-post.html'),
      formats: ['markdown'],
      onlyMainContent: true,
    });
    const markdown = (json as { markdown: string }).markdown;
    expect(markdown).toContain('# Sharpening a Hand Plane');
    expect(markdown).not.toContain('cookie policy');
  });

  it('firecrawl_map lists the pages of the site', async () => {
    const { raw, json } = await call('firecrawl_map', { url: stack.page('/') });
    expect(raw.isError, JSON.stringify(json)).toBeFalsy();
    const urls = (json as { links: { url: string }[] }).links.map((l) => l.url);
    expect(urls).toContain(stack.page('/docs/getting-started.html'));
  });

  it('firecrawl_crawl waits for the crawl, and firecrawl_check_crawl_status agrees with it', async () => {
    const { raw, json } = await call('firecrawl_crawl', { url: stack.page('/'), limit: 3, sitemap: 'skip' });
    expect(raw.isError, JSON.stringify(json)).toBeFalsy();
    const job = json as {
      id?: string;
      status: string;
      completed: number;
      total: number;
      data: { markdown?: string }[];
    };
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(3);
    expect([job.completed, job.total]).toEqual([3, 3]);
    expect(job.data.some((d) => d.markdown?.includes('Acme Field Notes'))).toBe(true);
  });

  it('firecrawl_check_crawl_status reads a crawl by id', async () => {
    const start = await fetch(`${stack.url}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: stack.page('/'), limit: 2, sitemap: 'skip' }),
    });
    const { id } = (await start.json()) as { id: string };
    let status: { status: string; completed: number; total: number; data: unknown[] } | undefined;
    for (let i = 0; i < 100 && status?.status !== 'completed'; i++) {
      status = (await call('firecrawl_check_crawl_status', { id })).json as typeof status;
      if (status?.status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toMatchObject({ status: 'completed', completed: 2, total: 2 });
    expect(status!.data).toHaveLength(2);
  });

  it('firecrawl_credit_usage shows the credits used, current and historical', async () => {
    const current = (await call('firecrawl_credit_usage', {})).json as {
      remainingCredits: number;
      planCredits: number;
    };
    expect(current.planCredits - current.remainingCredits).toBeGreaterThan(0);
    const historical = (await call('firecrawl_credit_usage', { view: 'historical' })).json as {
      periods: { creditsUsed: number }[];
    };
    expect(historical.periods[0]!.creditsUsed).toBe(current.planCredits - current.remainingCredits);
  });

  it('firecrawl_search finds a page the server stored, by the words of its body', async () => {
    const { raw, json } = await call('firecrawl_search', { query: 'sharpening hand plane', limit: 3 });
    expect(raw.isError, JSON.stringify(json)).toBeFalsy();
    const web = (json as { data: { web: { url: string }[] } }).data.web;
    expect(web[0]!.url).toBe(stack.page('/articles/first-post.html'));
  });

  it('firecrawl_monitor_* with the body form: create, run, checks, check, update, delete; the short form with a goal judged', async () => {
    const created = await call('firecrawl_monitor_create', {
      body: {
        name: 'plane',
        schedule: { cron: '0 0 1 1 *' },
        targets: [{ type: 'scrape', urls: [stack.page('/shop/plane.html')] }],
      },
    });
    expect(created.raw.isError, JSON.stringify(created.json)).toBeFalsy();
    const id = (created.json as { data: { id: string } }).data.id;
    expect((await call('firecrawl_monitor_get', { id })).json).toMatchObject({ data: { id, name: 'plane' } });
    expect(JSON.stringify((await call('firecrawl_monitor_list', { limit: 10 })).json)).toContain(id);
    const run = await call('firecrawl_monitor_run', { id });
    const checkId = (run.json as { data: { id: string } }).data.id;
    let checks: unknown;
    await until(async () => {
      checks = (await call('firecrawl_monitor_checks', { id, status: 'completed' })).json;
      return (checks as { data: { id: string }[] }).data.some((c) => c.id === checkId);
    }, 60_000);
    const check = await call('firecrawl_monitor_check', { id, checkId, pageStatus: 'new' });
    expect(check.json).toMatchObject({
      data: { status: 'completed', pages: [{ url: stack.page('/shop/plane.html'), status: 'new' }] },
    });
    const paused = await call('firecrawl_monitor_update', { id, body: { status: 'paused' } });
    expect(paused.json).toMatchObject({ data: { status: 'paused', nextRunAt: null } });
    expect((await call('firecrawl_monitor_delete', { id })).json).toEqual({ success: true });
    // The short form: a goal (judged by the server's model) and a webhook for pages and checks.
    const receiver = await startReceiver();
    const short = await call('firecrawl_monitor_create', {
      page: stack.page('/shop/plane.html'),
      goal: 'price drops',
      webhookUrl: `${receiver.url}/monitor`,
    });
    expect(short.raw.isError, JSON.stringify(short.json)).toBeFalsy();
    expect(short.json).toMatchObject({
      data: {
        name: `Monitor ${stack.page('/shop/plane.html')}`,
        schedule: { cron: '*/30 * * * *', text: 'every 30 minutes', timezone: 'UTC' },
        goal: 'price drops',
        judgeEnabled: true,
        webhook: { events: ['new', 'changed', 'removed', 'monitor.check.completed'] },
      },
    });
    const shortId = (short.json as { data: { id: string } }).data.id;
    const shortRun = (await call('firecrawl_monitor_run', { id: shortId })).json as { data: { id: string } };
    let judged: unknown;
    await until(async () => {
      judged = (await call('firecrawl_monitor_check', { id: shortId, checkId: shortRun.data.id })).json;
      return (judged as { data: { status: string } }).data.status !== 'running';
    }, 60_000);
    expect(judged).toMatchObject({
      data: {
        status: 'completed',
        pages: [{ status: 'new', judgment: { meaningful: expect.any(Boolean), confidence: expect.any(String) } }],
      },
    });
    await until(() => receiver.events.some((e) => (e.payload.type as string) === 'monitor.check.completed'), 30_000);
    expect(receiver.events.map((e) => e.payload.type).sort()).toEqual(['monitor.check.completed', 'schedule.change']);
    await receiver.close();
    expect((await call('firecrawl_monitor_delete', { id: shortId })).json).toEqual({ success: true });
  }, 120_000);

  it('firecrawl_monitor_create short form with `queries`: a search target of the stored pages, judged', async () => {
    await call('firecrawl_scrape', { url: stack.page('/shop/plane.html'), formats: ['markdown'] });
    const created = await call('firecrawl_monitor_create', {
      queries: ['bedded iron'],
      maxResults: 3,
      searchWindow: '7d',
      goal: 'new hand planes',
    });
    expect(created.raw.isError, JSON.stringify(created.json)).toBeFalsy();
    expect(created.json).toMatchObject({
      data: {
        name: 'Monitor bedded iron',
        targets: [{ type: 'search', queries: ['bedded iron'], maxResults: 3, searchWindow: '7d' }],
        goal: 'new hand planes',
      },
    });
    const id = (created.json as { data: { id: string } }).data.id;
    const run = (await call('firecrawl_monitor_run', { id })).json as { data: { id: string } };
    let check: unknown;
    await until(async () => {
      check = (await call('firecrawl_monitor_check', { id, checkId: run.data.id })).json;
      return (check as { data: { status: string } }).data.status !== 'running';
    }, 60_000);
    expect(check).toMatchObject({
      data: {
        status: 'completed',
        targetResults: [{ type: 'search', searchCompleted: true, resultCount: expect.any(Number) }],
        // Whatever else the server stored that matches is new too.
        pages: expect.arrayContaining([
          expect.objectContaining({
            url: stack.page('/shop/plane.html'),
            status: 'new',
            judgment: expect.objectContaining({ meaningful: expect.any(Boolean) }),
          }),
        ]),
      },
    });
    expect((await call('firecrawl_monitor_delete', { id })).json).toEqual({ success: true });
  }, 120_000);

  it('dialled loopback only', () => {
    const outside = stack.dialled().filter((d) => !d.allowed);
    expect(outside, mcpLog).toEqual([]);
    expect(stack.dialled().filter((d) => d.allowed).length).toBeGreaterThan(0);
  });
});
