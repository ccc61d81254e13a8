/**
 * `--credit-limit` holds under concurrency and across restarts (issue 38, finding 8): credits are reserved before the
 * work starts, atomically in the store, and the count is the store's, not a process's. Before: under a limit of 5, 30
 * concurrent scrapes spent 30 and a 50-URL batch spent 50; three concurrent crawls spent 30 under a limit of 10; a
 * restart set the count back to 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer, type CrawlkitServer } from '@crawlkit/server';
import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sleep } from './helpers-batch.ts';

let site: Server;
let origin: string;
let pagesServed = 0;
const dirs: string[] = [];

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/robots.txt' || req.url?.startsWith('/sitemap')) return void res.writeHead(404).end();
    pagesServed++;
    const path = req.url ?? '/';
    const links = [1, 2, 3, 4].map((i) => `<a href="${path.replace(/\/$/, '')}/${i}">link ${i}</a>`).join(' ');
    // A little slow, so that concurrent requests overlap.
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<html><head><title>${path}</title></head><body><main><h1>${path}</h1><p>Text.</p>${links}</main></body></html>`,
      );
    }, 30);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => site.close(() => resolve()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Serve {
  server: CrawlkitServer;
  ck: Crawlkit;
  close(): Promise<void>;
}

async function serve(dir: string, creditLimit: number): Promise<Serve> {
  const ck = new Crawlkit({ storeDir: dir, engine: 'http', resumeJobs: true });
  const server = await startServer({ crawlkit: ck, port: 0, creditLimit });
  return {
    server,
    ck,
    close: async () => {
      await server.close();
      await ck.close();
    },
  };
}

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ck-credits-'));
  dirs.push(dir);
  return dir;
}

async function post(s: Serve, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${s.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function usage(s: Serve): Promise<{ creditsUsed: number; remainingCredits: number }> {
  const response = await fetch(`${s.server.url}/v2/team/credit-usage`);
  return ((await response.json()) as { data: { creditsUsed: number; remainingCredits: number } }).data;
}

/** Waits until every job of the engine has finished. */
async function settled(ck: Crawlkit): Promise<void> {
  for (;;) {
    const unfinished = await ck.listUnfinishedJobs();
    if (Array.isArray(unfinished) && unfinished.length === 0) return;
    await sleep(50);
  }
}

describe('--credit-limit', () => {
  it('holds for 30 concurrent scrapes under a limit of 5', async () => {
    const s = await serve(newDir(), 5);
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => post(s, '/v2/scrape', { url: `${origin}/scrape/${i}` })),
      );
      const ok = answers.filter((a) => a.status === 200);
      expect(ok.length).toBe(5);
      expect(answers.filter((a) => a.status === 402).length).toBe(25);
      expect(answers.find((a) => a.status === 402)?.body.code).toBe('INSUFFICIENT_CREDITS');
      expect(await usage(s)).toMatchObject({ creditsUsed: 5, remainingCredits: 0 });
    } finally {
      await s.close();
    }
  });

  it('reserves a stealth page at 5 credits when a stealth proxy is configured, at 1 when none is', async () => {
    const withProxy = new Crawlkit({ store: 'memory', engine: 'http', proxies: { stealth: ['http://127.0.0.1:1'] } });
    const without = new Crawlkit({ store: 'memory', engine: 'http' });
    const before = pagesServed;
    try {
      const page = { url: `${origin}/stealth`, proxy: 'stealth' as const };
      expect(await withProxy.scrape(page, { creditLimit: 4 })).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
      const batch = { urls: [page.url], proxy: 'stealth' as const };
      expect(await withProxy.batchScrape(batch, { creditLimit: 4 })).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
      expect(pagesServed).toBe(before);
      // Served, and billed, as basic (the limit counts what the engine spent: the batch has 1 more).
      expect(await without.scrape(page, { creditLimit: 1 })).toMatchObject({ success: true });
      expect(await without.batchScrape(batch, { creditLimit: 2 })).toMatchObject({ success: true });
    } finally {
      await Promise.all([withProxy.close(), without.close()]);
    }
  });

  it('refuses a 50-URL batch under a limit of 5 before scraping anything', async () => {
    const s = await serve(newDir(), 5);
    const before = pagesServed;
    try {
      const answer = await post(s, '/v2/batch/scrape', {
        urls: Array.from({ length: 50 }, (_, i) => `${origin}/batch/${i}`),
      });
      expect(answer.status).toBe(402);
      expect(answer.body.code).toBe('INSUFFICIENT_CREDITS');
      expect(pagesServed).toBe(before);
      expect((await usage(s)).creditsUsed).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('holds for three concurrent crawls under a limit of 10', async () => {
    const s = await serve(newDir(), 10);
    try {
      const starts = await Promise.all(
        ['a', 'b', 'c'].map((name) => post(s, '/v2/crawl', { url: `${origin}/${name}/`, limit: 20, sitemap: 'skip' })),
      );
      for (const start of starts) expect(start.status).toBe(200);
      await settled(s.ck);
      let spent = 0;
      for (const start of starts) {
        const status = (await (await fetch(`${s.server.url}/v2/crawl/${start.body.id as string}`)).json()) as {
          creditsUsed: number;
        };
        spent += status.creditsUsed;
      }
      expect(spent).toBeLessThanOrEqual(10);
      expect((await usage(s)).creditsUsed).toBeLessThanOrEqual(10);
    } finally {
      await s.close();
    }
  });

  it('keeps the count across a restart', async () => {
    const dir = newDir();
    const first = await serve(dir, 5);
    try {
      for (let i = 0; i < 3; i++)
        expect((await post(first, '/v2/scrape', { url: `${origin}/r/${i}` })).status).toBe(200);
    } finally {
      await first.close();
    }
    const second = await serve(dir, 5);
    try {
      expect(await usage(second)).toMatchObject({ creditsUsed: 3, remainingCredits: 2 });
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => post(second, '/v2/scrape', { url: `${origin}/r2/${i}` })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});
