/**
 * `crawlkit mcp`'s `firecrawl_parse` and eight `firecrawl_monitor_*` tools, driven by the MCP SDK's client: a local
 * DOCX parsed, the paths that are no readable file told as tool errors, a monitor's life (create, run, checks, check,
 * update, delete); side by side with firecrawl-mcp (npm, unchanged) against `crawlkit serve`: the same tools and
 * equivalent answers; over `--http`, `firecrawl_parse` offered only with `--parse-root`, and only under it.
 */
import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeDocx } from '../packages/documents/src/__fixtures__/writers.ts';
import { CLI, ensureBuilt, startCli } from './cli-helpers.ts';
import { until } from './helpers-batch.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';
import { mcpUrlOf } from './helpers/mcp-http.ts';

const FIRECRAWL_MCP = fileURLToPath(new URL('../node_modules/firecrawl-mcp/dist/index.js', import.meta.url));
const KEY = 'fc-0123456789abcdef0123456789abcdef';
const NINE = [
  'firecrawl_parse',
  'firecrawl_monitor_create',
  'firecrawl_monitor_list',
  'firecrawl_monitor_get',
  'firecrawl_monitor_update',
  'firecrawl_monitor_delete',
  'firecrawl_monitor_run',
  'firecrawl_monitor_checks',
  'firecrawl_monitor_check',
];
const golden = readFileSync(
  new URL('../packages/documents/src/__fixtures__/golden/docx.md', import.meta.url),
  'utf8',
).trim();
/** Bytes `crawlkit mcp --parse-file-limit` is given: the DOCX fits, `big.txt` does not. */
const FILE_LIMIT = 100_000;

const dir = mkdtempSync(join(tmpdir(), 'ck-mcp-pm-'));
const files = join(dir, 'files');
let price = 10;
let page: Server;
let pageUrl: string;
let ours: Client;
let theirs: Client;
let stack: ServeStack;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Calls a tool; its answer's text parsed as JSON when it is (firecrawl-mcp's errors are plain text). */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const raw = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text?: string }[] };
  const text = raw.content.map((c) => c.text ?? '').join('');
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // a plain-text error
  }
  return { isError: raw.isError === true, json, text };
}

beforeAll(async () => {
  ensureBuilt();
  mkdirSync(join(files, 'folder'), { recursive: true });
  writeFileSync(join(files, 'report.docx'), await makeDocx());
  writeFileSync(join(files, 'big.txt'), 'x'.repeat(FILE_LIMIT + 1));
  writeFileSync(join(dir, 'secret.txt'), 'not for remote clients');
  symlinkSync(join(dir, 'secret.txt'), join(files, 'link.txt'));
  page = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<html><body><main><h1>Plane</h1><p>The No. 4 plane costs ${price} euros.</p></main></body></html>`);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/plane.html`;

  ours = new Client({ name: 'crawlkit-test', version: '1.0.0' });
  const args = [CLI, 'mcp', '--store', join(dir, 'store'), '--engine', 'http'];
  await ours.connect(
    new StdioClientTransport({ command: process.execPath, args: [...args, '--parse-file-limit', String(FILE_LIMIT)] }),
  );
  stack = await startServeStack({ server: { apiKeys: [KEY] } });
  theirs = new Client({ name: 'crawlkit-test', version: '1.0.0' });
  await theirs.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [FIRECRAWL_MCP],
      env: { PATH: process.env.PATH ?? '', FIRECRAWL_API_URL: stack.server.url, FIRECRAWL_API_KEY: KEY },
      stderr: 'ignore',
    }),
  );
}, 300_000);

afterAll(async () => {
  await ours?.close();
  await theirs?.close();
  await stack?.close();
  page?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('crawlkit mcp: firecrawl_parse and the monitor tools', () => {
  it("lists the nine with firecrawl-mcp's parameters and annotations", async () => {
    const mine = (await ours.listTools()).tools;
    const upstream = (await theirs.listTools()).tools;
    for (const name of NINE) {
      const a = mine.find((t) => t.name === name);
      const b = upstream.find((t) => t.name === name);
      expect(a, name).toBeDefined();
      expect(b, name).toBeDefined();
      const params = (tool: typeof a) => Object.keys(tool!.inputSchema.properties ?? {}).sort();
      // Every parameter of firecrawl-mcp's is taken (a prompt written for it is never refused a field).
      expect(params(a), name).toEqual(expect.arrayContaining(params(b)));
      expect(a!.inputSchema.required ?? [], name).toEqual(b!.inputSchema.required ?? []);
      const { title: _title, ...hints } = b!.annotations ?? {};
      expect(a!.annotations, name).toMatchObject(hints);
    }
  });

  it('parses a local DOCX into the markdown firecrawl-mcp gets from serve', async () => {
    // firecrawl-mcp's parse tool offers maxAge and storeInCache, which serve takes and ignores (a parse is not cached).
    const args = { filePath: join(files, 'report.docx'), formats: ['markdown'], maxAge: 0, storeInCache: false };
    const [mine, upstream] = await Promise.all([
      call(ours, 'firecrawl_parse', args),
      call(theirs, 'firecrawl_parse', args),
    ]);
    expect(mine.isError, mine.text).toBe(false);
    expect(upstream.isError, upstream.text).toBe(false);
    expect(mine.json.data.markdown.trim()).toBe(golden);
    expect(mine.json.data.markdown).toBe(upstream.json.data.markdown);
    expect(mine.json.data.metadata).toMatchObject({
      title: upstream.json.data.metadata.title,
      sourceURL: 'report.docx',
    });
  });

  it('answers a missing path, a directory and a file over the limit as tool errors naming the path', async () => {
    const missing = await call(ours, 'firecrawl_parse', { filePath: 'no-such/report.pdf' });
    expect(missing).toMatchObject({ isError: true, json: { success: false, code: 'BAD_REQUEST' } });
    // A relative path is read against the server's working directory, and the answer says so.
    expect(missing.json.error).toContain(`No file at ${join(process.cwd(), 'no-such/report.pdf')}`);
    expect(missing.json.error).toContain('working directory');

    const folder = await call(ours, 'firecrawl_parse', { filePath: join(files, 'folder') });
    expect(folder).toMatchObject({ isError: true, json: { code: 'BAD_REQUEST' } });
    expect(folder.json.error).toBe(`${join(files, 'folder')} is a directory: give the path of one file in it.`);

    const big = await call(ours, 'firecrawl_parse', { filePath: join(files, 'big.txt') });
    expect(big).toMatchObject({ isError: true, json: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(big.json.error).toContain(join(files, 'big.txt'));
    expect(big.json.error).toContain('--parse-file-limit');
    // sized as ck.parse() sizes it: in bytes under 1 MiB (it read "is 0.1 MiB, larger than the 0.1 MiB")
    expect(big.json.error).toContain(`is ${FILE_LIMIT + 1} bytes, larger than the ${FILE_LIMIT} bytes firecrawl_parse`);
  });

  it('gives the engine the limit --parse-file-limit raises past its default', async () => {
    // 50 MiB and one byte of zeros (a sparse file), under a limit of 60 MiB: read and given to the engine, whose own
    // parseFileLimit (50 MiB by default) must be the flag's too; the bytes are no document it reads.
    const zeros = join(dir, 'zeros.bin');
    const handle = openSync(zeros, 'w');
    ftruncateSync(handle, 50 * 1024 * 1024 + 1);
    closeSync(handle);
    const raised = new Client({ name: 'crawlkit-test', version: '1.0.0' });
    const args = [CLI, 'mcp', '--store', join(dir, 'store-raised'), '--engine', 'http'];
    await raised.connect(
      new StdioClientTransport({ command: process.execPath, args: [...args, '--parse-file-limit', String(60 << 20)] }),
    );
    try {
      const answer = await call(raised, 'firecrawl_parse', { filePath: zeros });
      expect(answer.isError).toBe(true);
      expect(answer.json.code, answer.text).not.toBe('PAYLOAD_TOO_LARGE');
    } finally {
      await raised.close();
      rmSync(zeros, { force: true });
    }
  });

  it('creates a monitor of a page, runs it, lists its checks, reads one, updates and deletes it', async () => {
    const pages = [pageUrl, `${pageUrl}?copy`];
    const created = await call(ours, 'firecrawl_monitor_create', { pages, goal: 'the price changes' });
    expect(created.isError, created.text).toBe(false);
    // firecrawl-mcp's defaults of the simple form.
    expect(created.json.data).toMatchObject({
      name: `Monitor ${pageUrl}`,
      status: 'active',
      schedule: { text: 'every 30 minutes', timezone: 'UTC', cron: '*/30 * * * *' },
      targets: [{ type: 'scrape', urls: pages }],
    });
    const id = created.json.data.id as string;

    const checkDone = async (checkId: string) =>
      until(async () => {
        const checks = await call(ours, 'firecrawl_monitor_checks', { id });
        return checks.json.data.some((c: Json) => c.id === checkId && c.status === 'completed');
      }, 10_000);
    const first = await call(ours, 'firecrawl_monitor_run', { id });
    expect(first.json.data).toMatchObject({ monitorId: id, trigger: 'manual' });
    await checkDone(first.json.data.id);
    price = 12;
    const second = await call(ours, 'firecrawl_monitor_run', { id });
    await checkDone(second.json.data.id);

    const checks = await call(ours, 'firecrawl_monitor_checks', { id, status: 'completed' });
    expect(checks.json.data.map((c: Json) => c.id)).toEqual([second.json.data.id, first.json.data.id]);
    const check = await call(ours, 'firecrawl_monitor_check', { id, checkId: second.json.data.id });
    expect(check.json.data.summary).toMatchObject({ totalPages: 2, changed: 2 });
    const changed = await call(ours, 'firecrawl_monitor_check', {
      id,
      checkId: second.json.data.id,
      pageStatus: 'changed',
      limit: 1,
    });
    expect(changed.json.data.pages).toHaveLength(1);
    expect(JSON.stringify(changed.json.data.pages[0])).toContain('12 euros');
    // The HTTP API's `next` URL, and the tool call that reads on, which an agent over MCP makes.
    expect(changed.json.nextTool).toEqual({
      name: 'firecrawl_monitor_check',
      arguments: { id, checkId: second.json.data.id, skip: 1, limit: 1, pageStatus: 'changed' },
    });
    const rest = await call(ours, 'firecrawl_monitor_check', changed.json.nextTool.arguments);
    expect(rest.json.data.pages.map((p: Json) => p.url)).not.toContain(changed.json.data.pages[0].url);
    expect(rest.json.nextTool).toBeUndefined();

    const listed = await call(ours, 'firecrawl_monitor_list', { limit: 10 });
    expect(listed.json.data.map((m: Json) => m.id)).toContain(id);
    const updated = await call(ours, 'firecrawl_monitor_update', { id, body: { status: 'paused' } });
    expect(updated.json.data).toMatchObject({ id, status: 'paused' });
    expect((await call(ours, 'firecrawl_monitor_get', { id })).json.data.status).toBe('paused');
    expect((await call(ours, 'firecrawl_monitor_delete', { id })).json).toEqual({ success: true });
    const gone = await call(ours, 'firecrawl_monitor_get', { id });
    expect(gone).toMatchObject({ isError: true, json: { code: 'MONITOR_NOT_FOUND' } });
  });

  it('answers the simple create form as firecrawl-mcp against serve does', async () => {
    const strip = ({ id: _id, nextRunAt: _n, createdAt: _c, updatedAt: _u, targets, ...rest }: Json) => ({
      ...rest,
      targets: targets.map(({ id: _t, ...target }: Json) => target),
    });
    const form = { queries: ['hand plane price'], goal: 'a new maker', searchWindow: '24h', timezone: 'Europe/Paris' };
    const [mine, upstream] = [
      await call(ours, 'firecrawl_monitor_create', form),
      await call(theirs, 'firecrawl_monitor_create', form),
    ];
    expect(mine.isError, mine.text).toBe(false);
    expect(upstream.isError, upstream.text).toBe(false);
    expect(strip(mine.json.data)).toEqual(strip(upstream.json.data));

    // What the engine cannot do is refused through both, never dropped unseen.
    const email = { page: pageUrl, goal: 'x', email: 'me@example.com' };
    const refused = await call(ours, 'firecrawl_monitor_create', email);
    expect(refused).toMatchObject({ isError: true, json: { code: 'BAD_REQUEST' } });
    expect(refused.json.error).toContain('crawlkit sends no email');
    const refusedUpstream = await call(theirs, 'firecrawl_monitor_create', email);
    expect(refusedUpstream.isError).toBe(true);
    expect(refusedUpstream.text).toContain('crawlkit sends no email');

    const noGoal = await call(ours, 'firecrawl_monitor_create', { page: pageUrl });
    expect(noGoal).toMatchObject({ isError: true, json: { code: 'BAD_REQUEST' } });
    expect(noGoal.json.error).toContain('`goal`');
  });
});

describe('crawlkit mcp --http: firecrawl_parse only under --parse-root', () => {
  const started: ReturnType<typeof startCli>[] = [];
  afterAll(async () => {
    for (const cli of started) cli.kill('SIGTERM');
    await Promise.all(started.map((cli) => cli.result));
  });

  async function httpClient(extra: string[]): Promise<Client> {
    const cli = startCli(['mcp', '--http', '--port', '0', '--store', join(dir, `http-${started.length}`), ...extra], {
      cwd: dir,
    });
    started.push(cli);
    const url = await mcpUrlOf(cli);
    const client = new Client({ name: 'crawlkit-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  }

  let plain: Promise<Client>;
  let rooted: Promise<Client>;
  beforeAll(() => {
    // Both started at once: each is a process to start.
    plain = httpClient([]);
    rooted = httpClient(['--parse-root', files]);
  });

  it('offers no firecrawl_parse without a root (a remote client would read any file), the monitors still', async () => {
    const names = (await (await plain).listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('firecrawl_parse');
    expect(names).toEqual(expect.arrayContaining(NINE.slice(1)));
    await (await plain).close();
  });

  it('reads files under the root, relative paths against it, and refuses a path out of it', async () => {
    const client = await rooted;
    const parsed = await call(client, 'firecrawl_parse', { filePath: 'report.docx' });
    expect(parsed.isError, parsed.text).toBe(false);
    expect(parsed.json.data.markdown.trim()).toBe(golden);
    for (const filePath of ['../secret.txt', join(dir, 'secret.txt'), 'link.txt']) {
      const outside = await call(client, 'firecrawl_parse', { filePath });
      expect(outside, filePath).toMatchObject({ isError: true, json: { code: 'BAD_REQUEST' } });
      expect(outside.json.error).toContain('is outside the folder firecrawl_parse reads');
    }
    await client.close();
  });
});
