/**
 * Branding with a language model: the profile is measured in real Chromium from the fixture site, and the model
 * (reached over HTTP through the AI SDK's OpenAI-compatible provider, answered by the local fixture LLM server) adds
 * `personality`. A failing model leaves a warning and the measured profile; zero data retention asks no model. The measured profile itself is tested
 * end to end in `test/branding.test.ts`.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startLlmServer, type LlmServer } from '../../../../fixtures/llm-server.ts';
import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { Crawlkit } from '../crawlkit.js';
import type { Document, ErrorResponse, ScrapeResponse } from '../v2/types.js';

let site: FixtureServer;
let llm: LlmServer;
let ck: Crawlkit;

beforeAll(async () => {
  site = await startFixtureServer();
  llm = await startLlmServer();
  const provider = createOpenAICompatible({ name: 'local', baseURL: llm.url, supportsStructuredOutputs: true });
  ck = new Crawlkit({
    store: 'memory',
    browser: { args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] },
    timeoutMs: 30_000,
    llm: { model: provider.chatModel('fixture-model'), maxRetries: 0 },
  });
});

beforeEach(() => llm.reset());

afterAll(async () => {
  await ck.close();
  await llm.close();
  await site.close();
});

function data(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`scrape failed: ${response.code} ${response.error}`);
  return response.data;
}

describe('branding with a language model', () => {
  it('adds the personality the model judged from the measured tokens and the page text', async () => {
    llm.enqueue(JSON.stringify({ tone: 'traditional', energy: 'low', targetAudience: 'neighbourhood bread lovers' }));
    const doc = data(await ck.scrape({ url: `${site.url}/branding/light.html`, formats: ['branding'] }));
    expect(doc.branding?.personality).toEqual({
      tone: 'traditional',
      energy: 'low',
      targetAudience: 'neighbourhood bread lovers',
    });
    expect(doc.branding?.colors?.primary).toBe('#e4572e');
    expect(doc.metadata.llmUsage).toMatchObject({ totalTokens: expect.any(Number) as number });
    // The model saw the measured tokens and the page's text.
    const prompt = JSON.stringify(llm.requests[0]!.body.messages);
    expect(prompt).toContain('#e4572e');
    expect(prompt).toContain('Bread baked before sunrise');
  }, 60_000);

  it('keeps the measured profile and warns when the model fails', async () => {
    llm.enqueue({ status: 400, body: { error: { message: 'model down' } } });
    const doc = data(await ck.scrape({ url: `${site.url}/branding/dark.html`, formats: ['branding'] }));
    expect(doc.branding?.colors?.primary).toBe('#8b5cf6');
    expect(doc.branding?.personality).toBeUndefined();
    expect(doc.warning).toContain('could not judge the brand personality');
  }, 60_000);

  it('keeps the page from the model under zero data retention: the measured profile, no personality', async () => {
    const doc = data(
      await ck.scrape({ url: `${site.url}/branding/light.html`, formats: ['branding'], zeroDataRetention: true }),
    );
    expect(doc.branding?.colors?.primary).toBe('#e4572e');
    expect(doc.branding?.personality).toBeUndefined();
    expect(llm.requests).toHaveLength(0);
  }, 60_000);
});
