/**
 * The LLM formats against a model server that misbehaves as real ones do (`fixtures/llm-faults.ts`): what a page
 * reports, what it is billed and what it counts when the model fails part way.
 */
import type { ServerResponse } from 'node:http';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startLlmServer, type LlmServer } from '../../../../fixtures/llm-server.ts';
import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { Crawlkit } from '../crawlkit.js';
import type { CrawlkitOptions } from '../options.js';
import type { ErrorResponse } from '../v2/types.js';
import type { LlmOptions } from './llm-options.js';

const PRODUCT = `<!doctype html><html lang="en"><head><title>Lamp</title></head><body><main><h1>Aurora Desk Lamp</h1>
  <p>The Aurora is a dimmable LED desk lamp with a warm light that is easy on the eyes during long evenings.</p>
  <ul><li>Price: 49.50</li></ul></main></body></html>`;

const schema = {
  type: 'object',
  properties: { title: { type: 'string' }, price: { type: 'number' } },
  required: ['title', 'price'],
};

let site: FixtureServer;
let llm: LlmServer;
const engines: Crawlkit[] = [];

function engine(settings: Omit<LlmOptions, 'model'> = {}, options: Partial<CrawlkitOptions> = {}): Crawlkit {
  const provider = createOpenAICompatible({ name: 'local', baseURL: llm.url, supportsStructuredOutputs: true });
  const ck = new Crawlkit({
    store: 'memory',
    engine: 'http',
    ...options,
    llm: { model: provider.chatModel('fixture-model'), ...settings },
  });
  engines.push(ck);
  return ck;
}

const spentOn = (response: ErrorResponse) => (response.details as { usage?: { totalTokens: number } }).usage;

beforeAll(async () => {
  site = await startFixtureServer({
    routes: {
      '/faults/product': (_req: unknown, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(PRODUCT);
      },
    },
  });
  llm = await startLlmServer();
});

beforeEach(() => llm.reset());

afterAll(async () => {
  await Promise.all(engines.map((ck) => ck.close()));
  await llm.close();
  await site.close();
});

describe('tokens of a page that fails', () => {
  it('counts the first answer when the repair round fails at the server', async () => {
    const ck = engine({ maxRetries: 0 });
    llm.enqueue('not json', { status: 500 });
    const response = await ck.scrape({
      url: `${site.url}/faults/product`,
      formats: [{ type: 'json', schema }],
    });
    expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
    const spent = spentOn(response as ErrorResponse);
    expect(spent?.totalTokens).toBeGreaterThan(0);
    expect(ck.getTokenUsage().data.tokensUsed).toBe(spent?.totalTokens);
  });

  it('counts the first answer when the repair round outlives the page timeout', async () => {
    const ck = engine();
    llm.enqueue('not json', { delayMs: 60_000 });
    const response = await ck.scrape({
      url: `${site.url}/faults/product`,
      timeout: 1_500,
      formats: [{ type: 'json', schema }],
    });
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect(spentOn(response as ErrorResponse)?.totalTokens).toBeGreaterThan(0);
    expect(ck.getTokenUsage().data.tokensUsed).toBe(spentOn(response as ErrorResponse)?.totalTokens);
  });

  it('counts the summary a page wrote before its json failed, and both json answers', async () => {
    const ck = engine();
    // The summary is the request without a response format; each json answer is invalid.
    llm.rule = (body) => (body.response_format ? 'not json' : undefined);
    const response = await ck.scrape({
      url: `${site.url}/faults/product`,
      formats: ['summary', { type: 'json', schema }],
    });
    expect(response).toMatchObject({ success: false, code: 'LLM_EXTRACTION_FAILED' });
    expect(llm.requests).toHaveLength(3);
    const spent = spentOn(response as ErrorResponse)!.totalTokens;
    const jsonOnly = await engine().scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    const jsonSpent = spentOn(jsonOnly as ErrorResponse)!.totalTokens;
    expect(spent).toBeGreaterThan(jsonSpent);
    expect(ck.getTokenUsage().data.tokensUsed).toBe(spent);
  });
});

describe('a server that refuses what it is sent', () => {
  it('answers without a response format when the server refuses json_schema, and remembers it', async () => {
    const strict = await startLlmServer({ rejectJsonSchema: true });
    try {
      const provider = createOpenAICompatible({ name: 'lm', baseURL: strict.url, supportsStructuredOutputs: true });
      const ck = new Crawlkit({ store: 'memory', engine: 'http', llm: provider.chatModel('lm-studio-model') });
      engines.push(ck);
      const first = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
      expect(first).toMatchObject({ success: true, data: { json: { title: 'Aurora Desk Lamp', price: 49.5 } } });
      expect(strict.requests.map((r) => r.body.response_format?.type ?? 'none')).toEqual(['json_schema', 'none']);
      // The schema still reaches the model, in the instructions.
      expect(strict.requests[1]!.body.messages[0]).toMatchObject({
        role: 'system',
        content: /JSON Schema:\n.*"price"/,
      });
      const second = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
      expect(second).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
      expect(strict.requests).toHaveLength(3);
      expect(strict.requests[2]!.body.response_format).toBeUndefined();
    } finally {
      await strict.close();
    }
  });
});
