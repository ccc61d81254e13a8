/**
 * User info in URLs (`http://user:password@host/`) is sent to the site and never leaves crawlkit: not in results
 * (scrape, batch, crawl), errors, events, webhook payloads, map links, the active crawls list, nor the CLI's output
 * and files (issue 23 §5).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, runCli } from './cli-helpers.ts';
import { ok } from './helpers/job-backends.ts';

const PASSWORD = 's3cret-Pa55';
const BASIC = `Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}`;

interface Site {
  port: number;
  /** Authorization headers of the requests, by path. */
  auth: Map<string, (string | undefined)[]>;
  close(): Promise<void>;
}

function page(title: string, links: string[]): string {
  const anchors = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return (
    `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
    `<p>A page behind basic authentication, with enough words to be kept as the main content.</p>` +
    `<ul>${anchors}</ul></main></body></html>`
  );
}

async function startSite(): Promise<Site> {
  const auth = new Map<string, (string | undefined)[]>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    auth.set(path, [...(auth.get(path) ?? []), req.headers.authorization]);
    // Slow enough that a crawl is still listed as active right after it starts.
    setTimeout(() => {
      if (path === '/robots.txt' || path.endsWith('.xml')) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(path === '/' ? page('Home', ['/a', '/b']) : page(`Page ${path}`, ['/']));
    }, 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    auth,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Receiver {
  url: string;
  bodies: string[];
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

async function webhookReceiver(): Promise<Receiver> {
  const bodies: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      headers.push(req.headers);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    headers,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let site: Site;
let dir: string;
let secretUrl: (path?: string) => string;

beforeAll(async () => {
  site = await startSite();
  dir = mkdtempSync(join(tmpdir(), 'ck-redact-'));
  secretUrl = (path = '/') => `http://user:${PASSWORD}@127.0.0.1:${site.port}${path}`;
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('user info in URLs', () => {
  it('is sent to the site and absent from every output of the API', async () => {
    const hook = await webhookReceiver();
    const ck = new Crawlkit({ storeDir: join(dir, 'api'), engine: 'http', webhooks: { retryDelayMs: 50 } });
    const outputs: unknown[] = [];
    ck.on('page', (event) => outputs.push(event));
    ck.on('error', (event) => outputs.push(event));
    try {
      const scraped = ok(await ck.scrape({ url: secretUrl(), formats: ['markdown', 'links', 'html'] }));
      expect(scraped.data.metadata.sourceURL).toBe(`http://127.0.0.1:${site.port}/`);
      outputs.push(scraped);

      const dead = `http://user:${PASSWORD}@127.0.0.1:${await closedPort()}/`;
      const batch = ok(
        await ck.batchScrape({
          urls: [secretUrl('/a'), dead, `ftp://user:${PASSWORD}@127.0.0.1/`],
          ignoreInvalidURLs: true,
          webhook: hook.url,
        }),
      );
      expect(batch.invalidURLs).toHaveLength(1);
      outputs.push(batch);

      const crawl = ok(await ck.crawl({ url: secretUrl(), limit: 3, webhook: hook.url }));
      const active = ok(await ck.getActiveCrawls());
      expect(active.crawls.map((c) => c.id)).toContain(crawl.id);
      outputs.push(active);

      const batchDone = ok(await ck.waitForJob(batch.id));
      expect(batchDone.data).toHaveLength(1);
      const batchErrors = await ck.getBatchScrapeErrors(batch.id);
      if (!('errors' in batchErrors)) throw new Error(batchErrors.error);
      expect(batchErrors.errors).toHaveLength(1);
      const crawlDone = ok(await ck.waitForJob(crawl.id));
      expect(crawlDone.data.length).toBeGreaterThan(1);
      outputs.push(batchDone, batchErrors, crawlDone, await ck.getCrawlErrors(crawl.id));
      outputs.push(ok(await ck.map({ url: secretUrl() })));

      // started, one page and one failed page, completed (batch); started, pages, completed (crawl).
      await until(() => hook.bodies.filter((b) => b.includes('.completed')).length === 2);
      outputs.push(hook.bodies);
    } finally {
      await ck.close();
      await hook.close();
    }
    const text = JSON.stringify(outputs);
    expect(text).toContain(`127.0.0.1:${site.port}`);
    expect(text).not.toContain(PASSWORD);
    // The credentials still reach the site.
    expect(site.auth.get('/')).toContain(BASIC);
    expect(site.auth.get('/a')).toContain(BASIC);
  });

  it('is absent from the CLI output, its manifest and page files', { timeout: 120_000 }, async () => {
    ensureBuilt();
    const out = join(dir, 'out');
    const store = join(dir, 'cli-store');
    const crawl = await runCli(['crawl', secretUrl(), '--limit', '3', '--json', '--out', out, '--store', store], {
      cwd: dir,
    });
    expect(crawl.code).toBe(0);
    const scrape = await runCli(['scrape', secretUrl('/b'), '--json', '--store', store], { cwd: dir });
    expect(scrape.code).toBe(0);
    const files = readdirSync(out);
    expect(files).toContain('manifest.json');
    expect(files).toContain('index.json');
    const written = files.map((file) => readFileSync(join(out, file), 'utf8'));
    const text = [crawl.stdout, crawl.stderr, scrape.stdout, scrape.stderr, ...written].join('\n');
    expect(text).toContain(`127.0.0.1:${site.port}`);
    expect(text).not.toContain(PASSWORD);
  });
});
