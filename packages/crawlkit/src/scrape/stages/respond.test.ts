/**
 * Credits by the interface's Limits table and reference §18, table-driven through the real `Crawlkit`: pages and PDFs
 * from the fixture server, `json` answered by the local fixture LLM over HTTP, a real SQLite store for the batch sums.
 * Nothing is charged: the numbers are accounting for callers who budget.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startLlmServer, type LlmServer } from '../../../../../fixtures/llm-server.ts';
import { startConnectProxy, type TestProxy } from '../../../../fetcher/src/http/__fixtures__/connect-proxy.ts';
import { startFixtureServer, type FixtureServer } from '../../../../../fixtures/server.ts';
import { Crawlkit } from '../../crawlkit.js';
import type { ScrapeRequestInput } from '../../v2/scrape-options.js';
import type { Document, ErrorResponse, JobStatusResponse, ScrapeResponse } from '../../v2/types.js';
import { documentCredits } from './respond.js';

let site: FixtureServer;
let llm: LlmServer;
let stealthProxy: TestProxy;
let ck: Crawlkit;
let dir: string;

beforeAll(async () => {
  [site, llm, stealthProxy] = await Promise.all([startFixtureServer(), startLlmServer(), startConnectProxy()]);
  dir = mkdtempSync(join(tmpdir(), 'ck-credits-'));
  const provider = createOpenAICompatible({ name: 'local', baseURL: llm.url, supportsStructuredOutputs: true });
  ck = new Crawlkit({
    storeDir: dir,
    engine: 'http',
    llm: provider.chatModel('fixture-model'),
    proxies: { stealth: [stealthProxy.url] },
  });
});

afterAll(async () => {
  await ck.close();
  await Promise.all([site.close(), llm.close(), stealthProxy.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function data(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`scrape failed: ${response.code} ${response.error}`);
  return response.data;
}

const JSON_FORMAT = {
  type: 'json' as const,
  schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
};

/** `credits` is a number, or a function of the scraped document (PDFs: per parsed page). */
const CASES: { name: string; body: Omit<ScrapeRequestInput, 'url'> & { path: string }; credits: number | 'pages' }[] = [
  { name: 'an HTML page', body: { path: '/articles/first-post.html' }, credits: 1 },
  {
    name: 'every format without a surcharge',
    body: {
      path: '/listing.html',
      formats: ['markdown', 'html', 'rawHtml', 'links', 'images', 'summary'],
    },
    credits: 1,
  },
  { name: 'a PDF parsed by the pdf parser: one per page', body: { path: '/files/manual.pdf' }, credits: 'pages' },
  { name: 'a one-page PDF', body: { path: '/files/report.pdf' }, credits: 1 },
  { name: 'a PDF with parsers: [] (base64, flat)', body: { path: '/files/manual.pdf', parsers: [] }, credits: 1 },
  { name: 'the stealth proxy: 5', body: { path: '/docs/getting-started.html', proxy: 'stealth' }, credits: 5 },
  { name: 'json extraction: 5 in total', body: { path: '/products/widget.html', formats: [JSON_FORMAT] }, credits: 5 },
  {
    name: 'json beside other formats: still 5',
    body: { path: '/products/widget.html', formats: ['markdown', 'links', JSON_FORMAT] },
    credits: 5,
  },
  {
    name: 'json through the stealth proxy: 5 + 4',
    body: { path: '/products/widget.html', formats: [JSON_FORMAT], proxy: 'stealth' },
    credits: 9,
  },
  { name: 'zero data retention: +1', body: { path: '/forum/thread.html', zeroDataRetention: true }, credits: 2 },
];

describe('credits per document', () => {
  let total = 0;

  for (const { name, body, credits } of CASES) {
    it(name, async () => {
      const { path, ...options } = body;
      const doc = data(await ck.scrape({ url: `${site.url}${path}`, maxAge: 0, ...options }));
      if (credits === 'pages') {
        expect(doc.metadata.numPages).toBeGreaterThan(1);
        expect(doc.metadata.creditsUsed).toBe(doc.metadata.numPages);
      } else {
        expect(doc.metadata.creditsUsed).toBe(credits);
      }
      total += doc.metadata.creditsUsed!;
      if (options.proxy === 'stealth') {
        expect(doc.metadata.proxyUsed).toBe('stealth');
        expect(stealthProxy.tunnels).toContain(`127.0.0.1:${site.port}`);
      }
    });
  }

  it('charges nothing for a failed scrape', async () => {
    const failed = await ck.scrape({ url: 'http://127.0.0.1:1/refused' });
    expect(failed.success).toBe(false);
  });

  it('sums documents into a batch job and the engine total', async () => {
    const urls = ['/articles/first-post.html', '/files/manual.pdf', '/files/report.pdf', '/listing.html'].map(
      (p) => `${site.url}${p}?batch=1`,
    );
    urls.push('http://127.0.0.1:1/refused');
    const started = await ck.batchScrape({ urls });
    if (!started.success) throw new Error(started.error);
    const done = (await ck.waitForJob(started.id)) as JobStatusResponse;
    expect(done.data).toHaveLength(4);
    const perDocument = done.data.map((d) => d.metadata.creditsUsed!);
    const manual = done.data.find((d) => d.metadata.sourceURL.includes('manual'))!;
    expect(manual.metadata.creditsUsed).toBe(manual.metadata.numPages);
    expect(done.creditsUsed).toBe(perDocument.reduce((a, b) => a + b, 0));
    expect(done.creditsUsed).toBe(3 + (manual.metadata.numPages as number));
    total += done.creditsUsed;

    const usage = ck.getCreditUsage();
    expect(usage.success).toBe(true);
    expect(usage.data.creditsUsed).toBe(total);
  });
});

describe('documentCredits()', () => {
  const markdown = [{ type: 'markdown' as const }];
  const table: [string, Parameters<typeof documentCredits>[0], number][] = [
    ['base', { formats: markdown, proxyUsed: 'basic', zeroDataRetention: false }, 1],
    ['10-page PDF', { formats: markdown, proxyUsed: 'basic', pdfPagesParsed: 10, zeroDataRetention: false }, 10],
    ['stealth', { formats: markdown, proxyUsed: 'stealth', zeroDataRetention: false }, 5],
    [
      'json change tracking',
      {
        formats: [{ type: 'markdown' }, { type: 'changeTracking', modes: ['json'] }] as never,
        proxyUsed: 'basic',
        zeroDataRetention: false,
      },
      5,
    ],
    [
      'git-diff change tracking',
      {
        formats: [{ type: 'markdown' }, { type: 'changeTracking', modes: ['git-diff'] }] as never,
        proxyUsed: 'basic',
        zeroDataRetention: false,
      },
      1,
    ],
    [
      'json, stealth, 3-page PDF, zdr',
      {
        formats: [{ type: 'json' }] as never,
        proxyUsed: 'stealth',
        pdfPagesParsed: 3,
        zeroDataRetention: true,
      },
      5 + 4 + 2 + 1,
    ],
  ];
  for (const [name, input, expected] of table) {
    it(name, () => expect(documentCredits(input)).toBe(expected));
  }
});

describe('proxy: stealth without a stealth proxy', () => {
  // Only the fingerprint evasions could run (none here: the HTTP engine): the page went direct, and costs what a basic
  // page costs, wherever credits are counted: the scrape, a batch's pages, the reservations under a credit limit.
  let bare: Crawlkit;
  let bareDir: string;

  beforeAll(() => {
    bareDir = mkdtempSync(join(tmpdir(), 'ck-credits-bare-'));
    bare = new Crawlkit({ storeDir: bareDir, engine: 'http' });
  });

  afterAll(async () => {
    await bare.close();
    rmSync(bareDir, { recursive: true, force: true });
  });

  it('says basic and bills 1, under a credit limit too', async () => {
    const url = `${site.url}/docs/getting-started.html?bare=1`;
    const doc = data(await bare.scrape({ url, maxAge: 0, proxy: 'stealth' }, { creditLimit: 3 }));
    expect(doc.metadata).toMatchObject({ proxyUsed: 'basic', creditsUsed: 1 });
    expect(doc.warning).toContain(
      'No stealth proxy is configured (`proxies.stealth`): the stealth attempt went direct',
    );

    const urls = ['/articles/first-post.html', '/listing.html'].map((p) => `${site.url}${p}?bare=1`);
    const started = await bare.batchScrape({ urls, proxy: 'stealth' }, { creditLimit: 3 });
    if (!started.success) throw new Error(`${started.code}: ${started.error}`);
    const done = (await bare.waitForJob(started.id)) as JobStatusResponse;
    expect(done.data.map((d) => d.metadata.proxyUsed)).toEqual(['basic', 'basic']);
    expect(done.creditsUsed).toBe(2);
    expect(bare.getCreditUsage().data.creditsUsed).toBe(3);
  });
});
