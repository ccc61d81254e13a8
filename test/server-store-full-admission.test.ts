/**
 * Every way a client starts a job meets one admission (`Admission.withRoom`): while the store has less room than
 * `/ready` requires, each answers 503 `STORE_FULL` in the v2 shape and starts nothing: `POST /v2/crawl`,
 * `/v2/batch/scrape`, their v1 forms, a schedule's and a monitor's run, and over MCP `firecrawl_crawl`,
 * `firecrawl_batch_scrape` and `firecrawl_monitor_run` as a tool error naming the code. Before, a schedule's or
 * monitor's run and the MCP tools started jobs every page of which then failed to be stored. The same engine under a
 * server that requires no room (`readyMinFreeMb: 0`) starts each: the refusals are the admission's, not the routes'.
 * The room is the real disk's (`statfs`); "full" is a required room of 100 TB, more than any disk this runs on.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { startMcpHttp, type McpHttpServer } from '@crawlkit/mcp';
import { startServer, type CrawlkitServer } from '@crawlkit/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CLI, ensureBuilt, startCli } from './cli-helpers.ts';
import { mcpUrlOf } from './helpers/mcp-http.ts';
import { call } from './helpers/raw-http.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

const FULL_MB = 100_000_000;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

let stack: ServeStack;
/** A second server over the same engine that requires no room: it starts every job. */
let roomy: CrawlkitServer;
let mcp: McpHttpServer;
let scheduleId = '';
let monitorId = '';

beforeAll(async () => {
  stack = await startServeStack({ server: { readyMinFreeMb: FULL_MB } });
  roomy = await startServer({ port: 0, crawlkit: stack.ck, logger: quiet, readyMinFreeMb: 0 });
  mcp = await startMcpHttp({ port: 0, crawlkit: stack.ck, readyMinFreeMb: FULL_MB });
  // Creating a schedule or monitor starts no job: admitted while full.
  const schedule = await call(stack.server.url, 'POST', '/v2/schedule', {
    body: { every: '1h', targets: [{ type: 'scrape', url: stack.page('/') }] },
  });
  expect(schedule.status).toBe(200);
  scheduleId = (schedule.body.data as { id: string }).id;
  const monitor = await call(stack.server.url, 'POST', '/v2/monitor', {
    body: { name: 'full', schedule: { cron: '0 0 1 1 *' }, targets: [{ type: 'scrape', urls: [stack.page('/')] }] },
  });
  expect(monitor.status).toBe(200);
  monitorId = (monitor.body.data as { id: string }).id;
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await roomy?.close();
  await stack?.close();
});

/** What a `firecrawl_crawl` call answers over `transport`, as its error flag and JSON. */
async function crawlTool(transport: StdioClientTransport | StreamableHTTPClientTransport) {
  const client = new Client({ name: 'full-store-cli', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'firecrawl_crawl', arguments: { url: stack.page('/'), limit: 1 } });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    return [result.isError, JSON.parse(text) as unknown];
  } finally {
    await client.close();
  }
}

/** Each request that starts a job, by name. */
const starts = (): Record<string, [string, unknown]> => ({
  'v2 crawl': ['/v2/crawl', { url: stack.page('/'), limit: 1 }],
  'v2 batch': ['/v2/batch/scrape', { urls: [stack.page('/')] }],
  'v1 crawl': ['/v1/crawl', { url: stack.page('/'), limit: 1 }],
  'v1 batch': ['/v1/batch/scrape', { urls: [stack.page('/')] }],
  'schedule run': [`/v2/schedule/${scheduleId}/run`, undefined],
  'monitor run': [`/v2/monitor/${monitorId}/run`, undefined],
});

describe('a full store refuses every new job, in the v2 shape', () => {
  it('answers each job-starting route 503 STORE_FULL and starts nothing; a server requiring no room starts each', async () => {
    for (const [name, [path, body]] of Object.entries(starts())) {
      const answer = await call(stack.server.url, 'POST', path, body === undefined ? {} : { body });
      expect([name, answer.status, answer.body], name).toEqual([
        name,
        503,
        { success: false, code: 'STORE_FULL', error: expect.stringContaining('--ready-min-free') },
      ]);
    }
    expect(await stack.ck.getActiveCrawls()).toMatchObject({ success: true, crawls: [] });
    const schedule = await call(stack.server.url, 'GET', `/v2/schedule/${scheduleId}`);
    expect((schedule.body.data as { lastRun?: unknown }).lastRun ?? null).toBeNull();
    const checks = await call(stack.server.url, 'GET', `/v2/monitor/${monitorId}/checks`);
    expect(checks.body.data).toEqual([]);

    for (const [name, [path, body]] of Object.entries(starts())) {
      const answer = await call(roomy.url, 'POST', path, body === undefined ? {} : { body });
      expect([name, answer.status], name).toEqual([name, 200]);
    }
  });

  it('is an SdkError with status 503 and code STORE_FULL to the official JS SDK', async () => {
    const fc = new Firecrawl({ apiKey: 'fc-local', apiUrl: stack.server.url });
    const error = await fc.startCrawl(stack.page('/'), { limit: 1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ status: 503, code: 'STORE_FULL' });
  });

  it('answers the MCP tools that start a job with a tool error naming STORE_FULL', async () => {
    const client = new Client({ name: 'full-store', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
    try {
      const calls: Record<string, Record<string, unknown>> = {
        firecrawl_crawl: { url: stack.page('/'), limit: 1 },
        firecrawl_batch_scrape: { urls: [stack.page('/')] },
        firecrawl_monitor_run: { id: monitorId },
      };
      for (const [name, args] of Object.entries(calls)) {
        const result = await client.callTool({ name, arguments: args });
        const text = (result.content as { type: string; text: string }[])[0]!.text;
        expect([name, result.isError, JSON.parse(text)], name).toEqual([
          name,
          true,
          { success: false, code: 'STORE_FULL', error: expect.stringContaining('room left') },
        ]);
      }
    } finally {
      await client.close();
    }
  });

  it(
    'crawlkit mcp --ready-min-free refuses a crawl on a full store, over stdio and --http',
    { timeout: 90_000 },
    async () => {
      ensureBuilt();
      const full = ['--ready-min-free', String(FULL_MB), '--store', stack.dir];
      const refused = [true, { success: false, code: 'STORE_FULL', error: expect.stringContaining('room left') }];
      const stdio = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', ...full],
        stderr: 'ignore',
      });
      expect(await crawlTool(stdio)).toEqual(refused);
      const http = startCli(['mcp', '--http', '--port', '0', ...full], { cwd: stack.dir });
      try {
        expect(await crawlTool(new StreamableHTTPClientTransport(new URL(await mcpUrlOf(http))))).toEqual(refused);
      } finally {
        http.kill('SIGTERM');
        await http.result;
      }
    },
  );
});
