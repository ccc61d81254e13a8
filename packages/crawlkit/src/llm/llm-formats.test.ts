/**
 * The LLM formats end to end through the real `Crawlkit`: pages from the fixture web server, a model reached over a
 * real HTTP connection through the AI SDK's OpenAI-compatible provider, answered by the local fixture LLM server.
 */

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { startLlmServer, type LlmServer } from '../../../../fixtures/llm-server.ts';
import { startFixtureServer, type FixtureServer, type Routes } from '../../../../fixtures/server.ts';
import { Crawlkit } from '../crawlkit.js';
import type { CrawlkitOptions } from '../options.js';
import type { Document, ErrorResponse, ScrapeResponse } from '../v2/types.js';
import { send } from './__fixtures__/llm-site.js';

const html = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main>${body}</main></body></html>`;

const PRODUCT = html(
  'Aurora Desk Lamp',
  `<h1>Aurora Desk Lamp</h1>
   <p>The Aurora is a dimmable LED desk lamp with a warm light that is easy on the eyes during long evenings of reading.
   Its aluminium arm folds flat, and the base hides a wireless charger for your phone.</p>
   <ul><li>Price: 49.50</li><li>In stock: yes</li><li>Colours: black, white, sage</li></ul>`,
);

const routes: Routes = {
  '/llm/product': send(PRODUCT),
  '/llm/empty': send(html('Empty', '')),
  '/llm/long': send(
    // Distinct paragraphs: main-content extraction drops word-for-word repeats.
    html(
      'Long',
      `<h1>Long</h1>${Array.from({ length: 400 }, (_, i) => `<p>Paragraph ${i}: lorem ipsum dolor sit amet, consectetur.</p>`).join('')}`,
    ),
  ),
};

let site: FixtureServer;
let llm: LlmServer;
const engines: Crawlkit[] = [];

function engine(options: Omit<CrawlkitOptions, 'llm'> & { llm?: CrawlkitOptions['llm'] | false } = {}): Crawlkit {
  const provider = createOpenAICompatible({ name: 'local', baseURL: llm.url, supportsStructuredOutputs: true });
  const { llm: llmOption, ...rest } = options;
  const ck = new Crawlkit({
    store: 'memory',
    engine: 'http',
    ...rest,
    ...(llmOption === false ? {} : { llm: llmOption ?? provider.chatModel('fixture-model') }),
  });
  engines.push(ck);
  return ck;
}

function data(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`scrape failed: ${response.code} ${response.error}`);
  return response.data;
}

const productSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    price: { type: 'number' },
    inStock: { type: 'boolean' },
    colours: { type: 'array', items: { type: 'string' } },
  },
  required: ['title', 'price', 'inStock', 'notAField'],
  additionalProperties: true,
};

beforeAll(async () => {
  site = await startFixtureServer({ routes });
  llm = await startLlmServer();
});

beforeEach(() => llm.reset());

afterAll(async () => {
  await Promise.all(engines.map((ck) => ck.close()));
  await llm.close();
  await site.close();
});

describe('json format', () => {
  it('extracts with a JSON schema, bills 5 credits and reports token usage', async () => {
    const ck = engine();
    const doc = data(
      await ck.scrape({ url: `${site.url}/llm/product`, formats: [{ type: 'json', schema: productSchema }] }),
    );
    expect(doc.json).toEqual({
      title: 'Aurora Desk Lamp',
      price: 49.5,
      inStock: true,
      colours: ['black', 'white', 'sage'],
    });
    expect(doc.markdown).toBeUndefined();
    expect(doc.metadata.creditsUsed).toBe(5);
    expect(doc.metadata.llmUsage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect((doc.metadata.llmUsage as { totalTokens: number }).totalTokens).toBeGreaterThan(0);

    expect(llm.requests).toHaveLength(1);
    const sent = llm.requests[0]!.body;
    expect(sent.model).toBe('fixture-model');
    expect(sent.temperature).toBe(0);
    expect(sent.response_format?.type).toBe('json_schema');
    // Normalised per §3.2 before it reaches the model.
    expect(sent.response_format?.json_schema?.schema).toMatchObject({ required: ['title', 'price', 'inStock'] });
    expect(sent.response_format?.json_schema?.schema).not.toHaveProperty('additionalProperties');
    expect(JSON.stringify(sent.messages)).toContain('Aurora Desk Lamp');
  });

  it('works with a server without structured outputs (JSON mode, schema in the instructions)', async () => {
    const model = createOpenAICompatible({ name: 'local', baseURL: llm.url }).chatModel('plain-json-model');
    const ck = engine({ llm: model });
    const doc = data(
      await ck.scrape({ url: `${site.url}/llm/product`, formats: [{ type: 'json', schema: productSchema }] }),
    );
    expect(doc.json).toMatchObject({ title: 'Aurora Desk Lamp', price: 49.5 });
    expect(llm.requests[0]!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('accepts a zod schema', async () => {
    const ck = engine();
    const schema = z.object({ title: z.string(), price: z.number() });
    const doc = data(await ck.scrape({ url: `${site.url}/llm/product`, formats: [{ type: 'json', schema }] }));
    expect(doc.json).toEqual({ title: 'Aurora Desk Lamp', price: 49.5 });
  });

  it('extracts with only a prompt', async () => {
    const ck = engine();
    const doc = data(
      await ck.scrape({
        url: `${site.url}/llm/product`,
        formats: [{ type: 'json', prompt: 'What is the product called?' }],
      }),
    );
    expect(doc.json).toEqual({ title: 'Aurora Desk Lamp' });
    expect(JSON.stringify(llm.requests[0]!.body.messages)).toContain('What is the product called?');
  });

  it('repairs a malformed first answer in a second round', async () => {
    const ck = engine();
    llm.enqueue('{"title": "Aurora Desk Lamp", "price": ');
    const doc = data(
      await ck.scrape({ url: `${site.url}/llm/product`, formats: [{ type: 'json', schema: productSchema }] }),
    );
    expect(doc.json).toMatchObject({ title: 'Aurora Desk Lamp', price: 49.5 });
    expect(llm.requests).toHaveLength(2);
    const repair = llm.requests[1]!.body.messages;
    expect(repair.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(repair[2]!.content).toBe('{"title": "Aurora Desk Lamp", "price": ');
    expect(JSON.stringify(repair[3]!.content)).toContain('not valid JSON');
  });

  it('repairs an answer that does not match the schema', async () => {
    const ck = engine();
    llm.enqueue('{"title": "Aurora Desk Lamp", "price": "49.50", "inStock": "yes", "colours": []}');
    const doc = data(
      await ck.scrape({ url: `${site.url}/llm/product`, formats: [{ type: 'json', schema: productSchema }] }),
    );
    expect(doc.json).toMatchObject({ price: 49.5, inStock: true });
    expect(JSON.stringify(llm.requests[1]!.body.messages.at(-1))).toContain('/price must be number');
  });

  it('ends in a per-document error when the repaired answer is still invalid', async () => {
    const ck = engine();
    llm.enqueue('not json', 'still not json');
    const response = await ck.scrape({
      url: `${site.url}/llm/product`,
      formats: ['markdown', { type: 'json', schema: productSchema }],
    });
    expect(response).toMatchObject({ success: false, code: 'LLM_EXTRACTION_FAILED' });
    expect((response as ErrorResponse).error).toMatch(/not usable after one repair round: it is not valid JSON/);
    // Both answers spent tokens, counted though the page failed.
    const spent = ((response as ErrorResponse).details as { usage: { totalTokens: number } }).usage.totalTokens;
    expect(spent).toBeGreaterThan(0);
    expect(ck.getTokenUsage().data.tokensUsed).toBe(spent);
    // The engine carries on.
    const next = data(
      await ck.scrape({ url: `${site.url}/llm/product`, formats: [{ type: 'json', schema: productSchema }] }),
    );
    expect(next.json).toMatchObject({ price: 49.5 });
  });

  it('fails one page of a batch without failing the batch', async () => {
    const ck = engine();
    llm.enqueue('nope', 'nope again');
    const started = await ck.batchScrape({
      urls: [`${site.url}/llm/product`],
      formats: [{ type: 'json', schema: productSchema }],
      maxConcurrency: 1,
    });
    if (!started.success) throw new Error(started.error);
    const finished = await ck.waitForJob(started.id);
    expect(finished).toMatchObject({ success: true, status: 'completed', data: [] });
    const errors = await ck.getBatchScrapeErrors(started.id);
    expect(JSON.stringify(errors)).toContain('repair round');
    // The failed page's two answers are counted, as a direct scrape's.
    expect(ck.getTokenUsage().data.tokensUsed).toBeGreaterThan(0);
  });

  it('reports a failed model request as LLM_REQUEST_FAILED', async () => {
    const ck = engine({
      llm: { model: createOpenAICompatible({ name: 'local', baseURL: llm.url }).chatModel('m'), maxRetries: 0 },
    });
    llm.enqueue({ status: 500, body: { error: { message: 'model crashed' } } });
    const response = await ck.scrape({ url: `${site.url}/llm/product`, formats: [{ type: 'json', prompt: 'x' }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
    expect((response as ErrorResponse).error).toContain('model crashed');
  });

  it('runs the model call inside the scrape timeout', async () => {
    const ck = engine();
    llm.enqueue({ content: '{}', delayMs: 5_000 });
    const response = await ck.scrape({
      url: `${site.url}/llm/product`,
      timeout: 1_000,
      formats: [{ type: 'json', prompt: 'x' }],
    });
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
  });

  it('trims long pages to the token budget at a line end, saying how much of the page the model was given', async () => {
    const ck = engine({
      llm: { model: createOpenAICompatible({ name: 'local', baseURL: llm.url }).chatModel('m'), maxInputTokens: 300 },
    });
    const url = `${site.url}/llm/long`;
    const doc = data(await ck.scrape({ url, formats: ['markdown', { type: 'json', prompt: 'title?' }] }));
    const messages = llm.requests[0]!.body.messages as { role: string; content: string }[];
    const page = /<page>\n([^]*)\n<\/page>$/.exec(messages.at(-1)!.content)![1]!;
    // a whole line of the page, not one cut where the token budget ran out
    expect(page).toMatch(/\nParagraph \d+: lorem ipsum dolor sit amet, consectetur\.$/);
    expect(doc.markdown!.startsWith(page)).toBe(true);
    const count = (n: number) => n.toLocaleString('en-US');
    const share = Math.floor((page.length / doc.markdown!.length) * 100);
    expect(doc.warning).toBe(
      'The extraction content would have used more tokens (' +
        /\((\d+)\)/.exec(doc.warning!)![1] +
        ') than the maximum we allow (300). -- the input has been automatically trimmed. ' +
        `The model was given the first ${count(page.length)} of ${count(doc.markdown!.length)} characters ` +
        `(${share}%): fields found only later in the page may be missing.`,
    );
    expect(page.length).toBeLessThan(1_500);
  });
});

describe('summary format', () => {
  it('is written by the model when one is configured', async () => {
    const ck = engine();
    const doc = data(await ck.scrape({ url: `${site.url}/llm/product`, formats: ['summary', 'markdown'] }));
    expect(doc.summary).toMatch(/^Summary: The Aurora is a dimmable LED desk lamp/);
    expect(doc.warning).toBeUndefined();
    expect(doc.markdown).toContain('Aurora Desk Lamp');
    expect(doc.metadata.creditsUsed).toBe(1);
    expect(llm.requests[0]!.body.response_format).toBeUndefined();
  });

  it('falls back to the extractive summariser with a warning without a model', async () => {
    const ck = engine({ llm: false });
    const doc = data(await ck.scrape({ url: `${site.url}/llm/product`, formats: ['summary'] }));
    expect(doc.summary).toContain('The Aurora is a dimmable LED desk lamp');
    expect(doc.warning).toMatch(/No language model is configured: the summary is extractive/);
    expect(llm.requests).toHaveLength(0);
  });

  it('is empty for a page without text, without a model call', async () => {
    const ck = engine();
    const doc = data(await ck.scrape({ url: `${site.url}/llm/empty`, formats: ['summary'] }));
    expect(doc.summary).toBe('');
    expect(doc.warning).toBe('The page has no text: its HTML holds nothing to convert.');
    expect(llm.requests).toHaveLength(0);
  });

  it('falls back with a warning when the model fails', async () => {
    const ck = engine({
      llm: { model: createOpenAICompatible({ name: 'local', baseURL: llm.url }).chatModel('m'), maxRetries: 0 },
    });
    llm.enqueue({ status: 503, body: { error: { message: 'overloaded' } } });
    const doc = data(await ck.scrape({ url: `${site.url}/llm/product`, formats: ['summary'] }));
    expect(doc.summary).toContain('The Aurora is a dimmable LED desk lamp');
    expect(doc.warning).toMatch(/The language model failed \(.*overloaded.*\): the summary is extractive/);
  });
});

describe('without a model', () => {
  it('refuses json, changeTracking json mode and crawl prompts with LLM_NOT_CONFIGURED (the code the error table gives it) before any fetch', async () => {
    const ck = engine({ llm: false });
    const before = site.requests.length;
    const json = await ck.scrape({ url: `${site.url}/llm/product`, formats: [{ type: 'json', prompt: 'x' }] });
    expect(json).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
    expect((json as ErrorResponse).error).toMatch(
      /json format needs a language model: pass one as `new Crawlkit\(\{ llm \}\)`/,
    );
    const tracking = await ck.scrape({
      url: `${site.url}/llm/product`,
      formats: ['markdown', { type: 'changeTracking', modes: ['json'] }],
    });
    expect(tracking).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
    expect((tracking as ErrorResponse).error).toContain('changeTracking json mode');
    const crawl = await ck.crawl({ url: `${site.url}/llm/site/blog`, prompt: 'blog posts' });
    expect(crawl).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
    expect((crawl as ErrorResponse).error).toContain('crawl prompt');
    const batch = await ck.batchScrape({ urls: [`${site.url}/llm/product`], formats: [{ type: 'json', prompt: 'x' }] });
    expect(batch).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
    const preview = await ck.crawlParamsPreview({ url: `${site.url}/llm/site/blog`, prompt: 'blog posts' });
    expect(preview).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
    expect(site.requests.length).toBe(before);
  });
});
