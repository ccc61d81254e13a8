/**
 * Zero data retention keeps the page from the configured model (reference §19: "JSON mode is not supported with zero
 * data retention."): every format that would send it there answers without the model, through the real `Crawlkit`,
 * a fixture page and the fixture model server reached over HTTP by the AI SDK's OpenAI-compatible provider.
 */
import type { ServerResponse } from 'node:http';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startLlmServer, type LlmServer } from '../../../../fixtures/llm-server.ts';
import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { Crawlkit } from '../crawlkit.js';
import type { Document, ErrorResponse, ScrapeResponse } from '../v2/types.js';

const PAGE =
  '<!doctype html><html lang="en"><head><title>Private notes</title></head><body><main><h1>Private notes</h1>' +
  '<p>The quarterly figures are confidential and must stay on this machine. Nobody else may read them.</p>' +
  '<p>Revenue grew by four percent while costs stayed flat across every region we report on.</p></main></body></html>';

let site: FixtureServer;
let llm: LlmServer;
let ck: Crawlkit;
let noModel: Crawlkit;

beforeAll(async () => {
  site = await startFixtureServer({
    routes: {
      '/zdr/page': (_req: unknown, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(PAGE);
      },
    },
  });
  llm = await startLlmServer();
  const provider = createOpenAICompatible({ name: 'local', baseURL: llm.url, supportsStructuredOutputs: true });
  ck = new Crawlkit({ store: 'memory', engine: 'http', llm: provider.chatModel('fixture-model') });
  noModel = new Crawlkit({ store: 'memory', engine: 'http' });
});

beforeEach(() => llm.reset());

afterAll(async () => {
  await Promise.all([ck.close(), noModel.close()]);
  await llm.close();
  await site.close();
});

function data(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`scrape failed: ${response.code} ${response.error}`);
  return response.data;
}

const url = () => `${site.url}/zdr/page`;
type Formats = NonNullable<Parameters<Crawlkit['scrape']>[0]['formats']>;
/** The page scraped with zero data retention, by `engine`. */
const scrapeZdr = async (formats: Formats, engine = ck) =>
  data(await engine.scrape({ url: url(), formats, zeroDataRetention: true }));
const JSON_ZDR = 'JSON mode is not supported with zero data retention.';

describe('zero data retention with a model configured', () => {
  it('answers json with the reference warning and no json, and never calls the model', async () => {
    const doc = await scrapeZdr(['markdown', { type: 'json', prompt: 'The figures' }]);
    expect(doc.json).toBeUndefined();
    expect(doc.warning).toContain(JSON_ZDR);
    expect(doc.markdown).toContain('quarterly figures');
    // Billed as upstream bills it: the json format asked for (5) and zero data retention (+1).
    expect(doc.metadata.creditsUsed).toBe(6);
    expect(llm.requests).toHaveLength(0);
    // Without zero data retention the same request reaches the model: the test's model is really there.
    const kept = data(await ck.scrape({ url: url(), formats: [{ type: 'json', prompt: 'The figures' }] }));
    expect(kept.json).toBeDefined();
    expect(llm.requests).toHaveLength(1);
  });

  it('gives an extractive summary, says why, and never calls the model', async () => {
    const doc = await scrapeZdr(['summary']);
    expect(doc.summary).toContain('The quarterly figures are confidential');
    expect(doc.warning).toMatch(/zero data retention.*the summary is extractive/i);
    expect(llm.requests).toHaveLength(0);
  });

  it('answers question and freeform query with a warning and no answer; directQuote still quotes', async () => {
    const question = await scrapeZdr([{ type: 'question', question: 'How much did revenue grow?' }]);
    expect(question.answer).toBeUndefined();
    expect(question.warning).toContain('The question format is not supported with zero data retention.');
    const query = await scrapeZdr([{ type: 'query', prompt: 'How much did revenue grow?', mode: 'freeform' }]);
    expect(query.answer).toBeUndefined();
    expect(query.warning).toContain('The query format (freeform) is not supported with zero data retention.');
    const quoted = await scrapeZdr([{ type: 'query', prompt: 'How much did revenue grow?', mode: 'directQuote' }]);
    expect(quoted.answer).toContain('Revenue grew by four percent');
    expect(llm.requests).toHaveLength(0);
  });

  it('answers changeTracking json mode with the reference warning, without the model', async () => {
    const doc = await scrapeZdr(['markdown', { type: 'changeTracking', modes: ['json'] }]);
    expect(doc.changeTracking).toBeUndefined();
    expect(doc.warning).toContain('Change tracking is not supported with zero data retention.');
    expect(llm.requests).toHaveLength(0);
  });

  it('does the same in a batch', async () => {
    const started = await ck.batchScrape({
      urls: [url()],
      formats: [{ type: 'json', prompt: 'The figures' }],
      zeroDataRetention: true,
    });
    if (!started.success) throw new Error(started.error);
    const status = await ck.waitForJob(started.id);
    if (!status.success) throw new Error(status.error);
    const [page] = status.data;
    expect(page?.json).toBeUndefined();
    expect(page?.warning).toContain(JSON_ZDR);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('zero data retention without a model', () => {
  it('answers json with the same warning instead of refusing for the missing model', async () => {
    const doc = await scrapeZdr([{ type: 'json', prompt: 'x' }], noModel);
    expect(doc.json).toBeUndefined();
    expect(doc.warning).toContain(JSON_ZDR);
  });
});
