/**
 * `crawlkit mcp`'s answers kept to what an agent's context holds, driven by the MCP SDK's client over stdio: a crawl
 * of more text than one answer holds is answered a slice of pages at a time, a page of megabytes is cut, and each
 * answer names the call that reads on, which an agent follows to the end without losing or repeating a page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { CLI, ensureBuilt, runCli } from './cli-helpers.ts';

/** firecrawl-mcp's inline budget, and crawlkit mcp's default: 20,000 tokens at 4 characters a token. */
const BUDGET = 80_000;
const PAGES = 40;
/** URLs of the site's sitemap: about 170 KB of links. */
const SITEMAP = 3_000;
/** Words of the long page: about 600 KB of markdown. */
const SENTENCES = 10_000;
/** Links of the page of links (about 900 KB of them as JSON), and its images. */
const LINKS = 20_000;
const IMAGES = 3_000;

let site: Server;
let siteUrl: string;
let client: Client;
const dir = mkdtempSync(join(tmpdir(), 'ck-mcp-size-'));

beforeAll(async () => {
  ensureBuilt();
  // The root links to PAGES pages of about 6 KB of text each (240 KB in all); /long is one page of 600 KB.
  site = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/sitemap.xml') {
      res.setHeader('content-type', 'application/xml');
      const urls = Array.from({ length: SITEMAP }, (_, k) => `<url><loc>${siteUrl}/docs/${k}</loc></url>`).join('');
      return void res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
      );
    }
    if (req.url === '/links') {
      const links = Array.from({ length: LINKS }, (_, k) => `<a href="/to/${k}">${k}</a>`).join(' ');
      const images = Array.from({ length: IMAGES }, (_, k) => `<img src="/img/${k}.png" alt="">`).join('');
      return void res.end(`<html><head><title>Links</title></head><body>${links}${images}</body></html>`);
    }
    if (req.url === '/long') {
      const text = Array.from({ length: SENTENCES }, (_, i) => `Sentence ${i} of the long page.`).join(' ');
      return void res.end(`<html><head><title>Long</title></head><body><main><p>${text}</p></main></body></html>`);
    }
    const i = req.url === '/' ? -1 : Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
    if (i === -1) {
      const links = Array.from({ length: PAGES }, (_, k) => `<a href="/p/${k}">page ${k}</a>`).join(' ');
      return void res.end(
        `<html><head><title>Home</title></head><body><main><h1>Home</h1>${links}</main></body></html>`,
      );
    }
    if (!(i >= 0 && i < PAGES)) return void res.writeHead(404).end();
    const text = `Paragraph of page ${i}, long enough to be its main content and to weigh in the answer. `.repeat(70);
    res.end(
      `<html><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1><p>${text}</p></main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--store', dir] }));
}, 300_000);

afterAll(async () => {
  await client?.close();
  await new Promise<void>((resolve) => site?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: Record<string, any>;
}

async function call(name: string, args: Record<string, unknown>): Promise<Answer> {
  const raw = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text?: string }[] };
  const text = raw.content.map((c) => c.text ?? '').join('');
  expect(raw.isError, text.slice(0, 500)).toBeFalsy();
  return { text, json: JSON.parse(text) as Answer['json'] };
}

it("answers a crawl's pages a slice at a time, each answer naming the call that reads the next", async () => {
  const crawl = await call('firecrawl_crawl', { url: `${siteUrl}/`, limit: PAGES + 1, sitemap: 'skip' });
  expect(crawl.json).toMatchObject({ status: 'completed', completed: PAGES + 1 });
  // Before: one answer of every page (260 KB here; 2.6 MB for 150 pages of a docs site).
  expect(crawl.text.length).toBeLessThanOrEqual(BUDGET);
  expect(crawl.json.nextTool).toEqual({
    name: 'firecrawl_check_crawl_status',
    arguments: { id: crawl.json.id, skip: crawl.json.data.length },
  });
  expect(crawl.json.message).toContain(`skip: ${crawl.json.data.length}`);

  // The agent follows nextTool to the end: every page once.
  const urls: string[] = crawl.json.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL);
  let answer = crawl;
  while (answer.json.nextTool) {
    const { name, arguments: args } = answer.json.nextTool as { name: string; arguments: Record<string, unknown> };
    answer = await call(name, args);
    expect(answer.text.length).toBeLessThanOrEqual(BUDGET);
    urls.push(...answer.json.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL));
  }
  expect(urls).toHaveLength(PAGES + 1);
  expect(new Set(urls).size).toBe(PAGES + 1);
  expect(answer.json.next).toBeUndefined();
}, 60_000);

it("answers a batch's pages a slice at a time too", async () => {
  const urls = Array.from({ length: PAGES }, (_, i) => `${siteUrl}/p/${i}`);
  const batch = await call('firecrawl_batch_scrape', { urls });
  let status = await call('firecrawl_check_batch_status', { id: batch.json.id });
  while (status.json.status === 'scraping') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = await call('firecrawl_check_batch_status', { id: batch.json.id });
  }
  expect(status.text.length).toBeLessThanOrEqual(BUDGET);
  expect(status.json.data.length).toBeLessThan(PAGES);
  const read: string[] = [];
  for (let answer = status; ;) {
    read.push(...answer.json.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL));
    if (!answer.json.nextTool) break;
    expect(answer.json.nextTool.name).toBe('firecrawl_check_batch_status');
    answer = await call('firecrawl_check_batch_status', answer.json.nextTool.arguments);
  }
  expect(read.toSorted()).toEqual(urls.toSorted());
}, 60_000);

it("answers a map's links a slice at a time", async () => {
  const map = await call('firecrawl_map', { url: `${siteUrl}/`, sitemap: 'only' });
  // Before: every link in one answer (250 KB here; a map's default limit is 5,000 links).
  expect(map.text.length).toBeLessThanOrEqual(BUDGET);
  const links: string[] = [];
  for (let answer = map; ;) {
    links.push(...answer.json.links.map((link: { url: string }) => link.url));
    if (!answer.json.nextTool) break;
    expect(answer.json.nextTool).toMatchObject({ name: 'firecrawl_map', arguments: { sitemap: 'only' } });
    answer = await call('firecrawl_map', answer.json.nextTool.arguments);
    expect(answer.text.length).toBeLessThanOrEqual(BUDGET);
  }
  expect(links).toHaveLength(SITEMAP);
  expect(new Set(links).size).toBe(SITEMAP);
}, 60_000);

it('cuts a page of megabytes, and reads it on from the offset its note gives', async () => {
  const first = await call('firecrawl_scrape', { url: `${siteUrl}/long` });
  // Before: the whole 600 KB of markdown in one answer.
  expect(first.text.length).toBeLessThanOrEqual(BUDGET);
  expect(first.json.data.metadata.title).toBe('Long');

  let markdown = '';
  let answer = first;
  for (let reads = 0; reads < 20; reads++) {
    const text = answer.json.data.markdown as string;
    const note = /\n\n\[cut: characters (\d+) to (\d+) of (\d+) shown.*offset: (\d+) reads on\.\]$/.exec(text);
    if (!note) {
      markdown += text;
      break;
    }
    expect(Number(note[1])).toBe(markdown.length);
    markdown += text.slice(0, note.index);
    answer = await call('firecrawl_scrape', { url: `${siteUrl}/long`, offset: Number(note[4]) });
    expect(answer.text.length).toBeLessThanOrEqual(BUDGET);
  }
  // Read whole, in order, with nothing lost or repeated at the cuts.
  expect(markdown).toContain('Sentence 0 of the long page.');
  expect(markdown.endsWith(`Sentence ${SENTENCES - 1} of the long page.`)).toBe(true);
  const numbers = [...markdown.matchAll(/Sentence (\d+) /g)].map((m) => Number(m[1]));
  expect(numbers).toEqual(Array.from({ length: SENTENCES }, (_, i) => i));
}, 60_000);

/** The entries of a page's `format` read through every answer, following the note that ends a cut list. */
async function readList(format: 'links' | 'images'): Promise<string[]> {
  const entries: string[] = [];
  let answer = await call('firecrawl_scrape', { url: `${siteUrl}/links`, formats: ['links', 'images'] });
  for (let reads = 0; reads < 40; reads++) {
    expect(answer.text.length).toBeLessThanOrEqual(BUDGET);
    const list = answer.json.data[format] as string[];
    const note = /^\[cut: entries (\d+) to (\d+) of (\d+) shown.*skip: (\d+) reads on\.\]$/.exec(list.at(-1) ?? '');
    if (!note) return [...entries, ...list];
    expect(Number(note[1])).toBe(entries.length);
    entries.push(...list.slice(0, -1));
    expect(Number(note[2])).toBe(entries.length);
    answer = await call('firecrawl_scrape', {
      url: `${siteUrl}/links`,
      formats: ['links', 'images'],
      skip: Number(note[4]),
    });
  }
  throw new Error(`${format}: still cut after 40 reads`);
}

it("cuts a page's thousands of links and images, and reads them on from the skip its note gives", async () => {
  // Before: all 20,000 links and 3,000 images in one answer (1 MB), past the budget: only long strings were cut.
  const links = await readList('links');
  expect(links).toEqual(Array.from({ length: LINKS }, (_, k) => `${siteUrl}/to/${k}`));
  const images = await readList('images');
  expect(images).toEqual(Array.from({ length: IMAGES }, (_, k) => `${siteUrl}/img/${k}.png`));
}, 60_000);

it('takes its budget from --max-answer-chars, and refuses one too small to hold a page', async () => {
  const small = new Client({ name: 'agent', version: '1.0.0' });
  await small.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--store', dir, '--max-answer-chars', '20000'],
    }),
  );
  try {
    const raw = (await small.callTool({ name: 'firecrawl_scrape', arguments: { url: `${siteUrl}/long` } })) as {
      content: { text: string }[];
    };
    expect(raw.content[0]!.text.length).toBeLessThanOrEqual(20_000);
    expect(raw.content[0]!.text).toMatch(/offset: \d+ reads on/);
  } finally {
    await small.close();
  }
  const refused = await runCli(['mcp', '--store', dir, '--max-answer-chars', '500'], { cwd: dir });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('--max-answer-chars) must be a whole number of at least 10000 (got 500)');
}, 60_000);
