/**
 * The engine's messages name the engine option that would help (`extractionBudgetMs`). A caller of `crawlkit serve`
 * or `crawlkit mcp` cannot set it: every surface that speaks to one names the command's flag instead. The answers of
 * serve: test/serve-operator-options.test.ts. Here the rest, each through its real client: a crawl's webhook events
 * (started with firecrawl-js against serve, and by an agent through `crawlkit mcp`), the job WebSocket (firecrawl-js's
 * watcher), and the MCP tools' answers (the MCP SDK's client). Each with a 1 ms budget and a 200-page PDF, as there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Firecrawl, { type Document } from '@mendable/firecrawl-js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { writePdf } from '../packages/extractor/src/pdf/__fixtures__/write-pdf.ts';
import type { FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt } from './cli-helpers.ts';
import { startReceiver, until, type Receiver } from './helpers-batch.ts';
import { connectMcpStdio } from './helpers/mcp-http.ts';
import { startRouteSite } from './helpers/route-site.ts';
import { serveCli, type ServeCli } from './helpers/serve-cli.ts';

const KEY = 'fc-0123456789abcdef0123456789abcdef';
/** What a document cut by the budget says through a command (`serve` or `mcp`), for one that no call changes. */
const cutBy = (owner: string, command: string, call: string) =>
  `The extraction budget (1 ms) ran out before the whole document was read: raise ${owner} extraction budget ` +
  `(\`crawlkit ${command} --extraction-budget\`: its operator's setting, which no ${call} changes) to read the rest.`;
const SERVE_CUT = cutBy("the server's", 'serve', 'request');
const MCP_CUT = cutBy("the MCP server's", 'mcp', 'tool call');

let dir: string;
let site: FixtureServer;
let hook: Receiver;
/** Opens `/held.pdf`, which answers once the test says so. */
let release: () => void = () => {};

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-operator-words-'));
  // Enough pages that 1 ms cannot read them all (as test/document-budget.test.ts).
  const paragraph = { text: 'A paragraph of a long manual, one of several on each of its many pages. '.repeat(6) };
  const manual = await writePdf(Array.from({ length: 200 }, () => ({ blocks: [paragraph, paragraph, paragraph] })));
  const held = new Promise<void>((resolve) => (release = resolve));
  const pdf = { 'content-type': 'application/pdf' };
  site = await startRouteSite({
    '/manual.pdf': (_req, res) => void res.writeHead(200, pdf).end(manual),
    '/held.pdf': (_req, res) => void held.then(() => res.writeHead(200, pdf).end(manual)),
  });
  hook = await startReceiver();
}, 300_000);

afterAll(async () => {
  release();
  await hook?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The warnings of the `crawl.page` events of job `id` the receiver took. */
function pageWarnings(id: string): unknown[] {
  return hook.events
    .map((event) => event.payload)
    .filter((payload) => payload.id === id && payload.type === 'crawl.page')
    .flatMap((payload) => (payload.data as { warning?: string }[]).map((doc) => doc.warning));
}

describe('through crawlkit serve --extraction-budget 1', () => {
  let serve: ServeCli;
  let fc: Firecrawl;
  beforeAll(async () => {
    serve = await serveCli(dir, ['--extraction-budget', '1']);
    fc = new Firecrawl({ apiKey: KEY, apiUrl: serve.url });
  });
  afterAll(async () => {
    release();
    await serve?.stop();
  });

  it("a crawl's webhook events and its WebSocket (the watcher's documents, live and caught up) name the serve flag", async () => {
    const url = `${site.url}/held.pdf`;
    const started = await fc.startCrawl(url, { limit: 1, sitemap: 'skip', webhook: { url: hook.url } });
    const watcher = fc.watcher(started.id, { kind: 'crawl', pollInterval: 1 });
    const live: Document[] = [];
    watcher.on('document', (doc: Document) => live.push(doc));
    // The catch-up came (the PDF still held): the page comes as a `document` message.
    const caughtUp = new Promise((resolve) => watcher.once('snapshot', resolve));
    const done = new Promise((resolve) => watcher.once('done', resolve));
    void watcher.start();
    await caughtUp;
    expect(live).toEqual([]);
    release();
    await done;
    // Before: "The extraction budget (extractionBudgetMs: 1 ms) … raise `extractionBudgetMs` to read the rest."
    expect(live.map((doc) => doc.warning)).toEqual([expect.stringContaining(SERVE_CUT)]);

    // A watcher after the end reads the stored document in the catch-up.
    const late = fc.watcher(started.id, { kind: 'crawl', pollInterval: 1 });
    const stored: Document[] = [];
    late.on('document', (doc: Document) => stored.push(doc));
    await late.start();
    expect(stored.map((doc) => doc.warning)).toEqual([expect.stringContaining(SERVE_CUT)]);

    await until(() => pageWarnings(started.id).length > 0, 30_000);
    expect(pageWarnings(started.id)).toEqual([expect.stringContaining(SERVE_CUT)]);
    expect(JSON.stringify(hook.events)).not.toContain('extractionBudgetMs');
  });
});

describe('through crawlkit mcp --extraction-budget 1 (the MCP SDK client)', () => {
  let client: Client;
  let stderr = () => '';
  beforeAll(async () => {
    const store = mkdtempSync(join(dir, 'mcp-'));
    ({ client, stderr } = await connectMcpStdio(['--store', store, '--engine', 'http', '--extraction-budget', '1']));
  });
  afterAll(async () => {
    await client?.close();
  });

  /** Calls a tool; its answer's text (the tools answer JSON text). */
  async function call(name: string, args: Record<string, unknown>): Promise<string> {
    const raw = (await client.callTool({ name, arguments: args })) as { content: { text?: string }[] };
    return raw.content.map((c) => c.text ?? '').join('');
  }

  it("a tool's answer and a crawl's webhook events name crawlkit mcp's flag", async () => {
    const url = `${site.url}/manual.pdf`;
    const scraped = await call('firecrawl_scrape', { url, formats: ['markdown'], maxAge: 0 });
    // Before: "… raise `extractionBudgetMs` to read the rest."
    expect(scraped, stderr()).toContain(MCP_CUT);
    expect(scraped).not.toContain('extractionBudgetMs');

    const crawled = await call('firecrawl_crawl', { url, limit: 1, sitemap: 'skip', webhook: hook.url });
    expect(crawled).toContain(MCP_CUT);
    const { id } = JSON.parse(crawled) as { id: string };
    await until(() => pageWarnings(id).length > 0, 30_000);
    expect(pageWarnings(id)).toEqual([expect.stringContaining(MCP_CUT)]);
  });
});
