/**
 * The LLM formats against a model server that misbehaves as real ones do (`fixtures/llm-faults.ts`): what a page
 * reports, what it is billed and what it counts when the model fails part way.
 */
import { createServer } from 'node:http';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { describe, expect, it } from 'vitest';

import { startLlmServer } from '../../../../fixtures/llm-server.ts';
import { listenOnLoopback } from '../../../../fixtures/loopback-listen.ts';
import { Crawlkit } from '../crawlkit.js';
import type { ErrorResponse } from '../v2/types.js';
import { schema, spentOn, faultRoutes, useLlmSite } from './__fixtures__/llm-site.js';

const bench = useLlmSite(faultRoutes);
const engine = bench.engine.bind(bench);

describe('tokens of a page that fails', () => {
  it('counts the first answer when the repair round fails at the server', async () => {
    const ck = engine({ maxRetries: 0 });
    bench.llm.enqueue('not json', { status: 500 });
    const response = await ck.scrape({
      url: `${bench.site.url}/faults/product`,
      formats: [{ type: 'json', schema }],
    });
    expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
    const spent = spentOn(response as ErrorResponse);
    expect(spent?.totalTokens).toBeGreaterThan(0);
    expect(ck.getTokenUsage().data.tokensUsed).toBe(spent?.totalTokens);
  });

  it('counts the first answer when the repair round outlives the page timeout', async () => {
    const ck = engine();
    bench.llm.enqueue('not json', { delayMs: 60_000 });
    const response = await ck.scrape({
      url: `${bench.site.url}/faults/product`,
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
    bench.llm.rule = (body) => (body.response_format ? 'not json' : undefined);
    const response = await ck.scrape({
      url: `${bench.site.url}/faults/product`,
      formats: ['summary', { type: 'json', schema }],
    });
    expect(response).toMatchObject({ success: false, code: 'LLM_EXTRACTION_FAILED' });
    expect(bench.llm.requests).toHaveLength(3);
    const spent = spentOn(response as ErrorResponse)!.totalTokens;
    const jsonOnly = await engine().scrape({
      url: `${bench.site.url}/faults/product`,
      formats: [{ type: 'json', schema }],
    });
    const jsonSpent = spentOn(jsonOnly as ErrorResponse)!.totalTokens;
    expect(spent).toBeGreaterThan(jsonSpent);
    expect(ck.getTokenUsage().data.tokensUsed).toBe(spent);
  });
});

describe('a server that sends no usage', () => {
  it('counts estimated tokens for the page and the engine, not 0', async () => {
    const ck = engine();
    bench.llm.rule = () => ({ noUsage: true });
    const response = await ck.scrape({
      url: `${bench.site.url}/faults/product`,
      formats: ['summary', { type: 'json', schema }],
    });
    expect(response).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
    const usage = (response as unknown as { data: { metadata: { llmUsage: Record<string, number> } } }).data.metadata
      .llmUsage;
    // Before: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }. The page and the instructions are ~250 tokens.
    expect(usage.inputTokens).toBeGreaterThan(200);
    expect(usage.outputTokens).toBeGreaterThan(5);
    expect(usage.totalTokens).toBe(usage.inputTokens! + usage.outputTokens!);
    expect(ck.getTokenUsage().data.tokensUsed).toBe(usage.totalTokens);
  });
});

describe('a server that refuses what it is sent', () => {
  it('answers without a response format when the server refuses json_schema, and remembers it', async () => {
    const strict = await startLlmServer({ rejectJsonSchema: true });
    try {
      const provider = createOpenAICompatible({ name: 'lm', baseURL: strict.url, supportsStructuredOutputs: true });
      const ck = new Crawlkit({ store: 'memory', engine: 'http', llm: provider.chatModel('lm-studio-model') });
      bench.own(ck);
      const first = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
      expect(first).toMatchObject({ success: true, data: { json: { title: 'Aurora Desk Lamp', price: 49.5 } } });
      expect(strict.requests.map((r) => r.body.response_format?.type ?? 'none')).toEqual(['json_schema', 'none']);
      // The schema still reaches the model, in the instructions.
      expect(strict.requests[1]!.body.messages[0]).toMatchObject({
        role: 'system',
        content: /JSON Schema:\n.*"price"/,
      });
      const second = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
      expect(second).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
      expect(strict.requests).toHaveLength(3);
      expect(strict.requests[2]!.body.response_format).toBeUndefined();
    } finally {
      await strict.close();
    }
  });
});

describe('a base URL that is not an OpenAI-compatible API', () => {
  it('says what the server answered and to check the base URL, the model name or the key', async () => {
    // A web server: its pages under /site (a 200 HTML page for any path), 404 elsewhere, 401 under /locked.
    const web = await listenOnLoopback(
      createServer((req, res) => {
        const status = req.url!.startsWith('/site') ? 200 : req.url!.startsWith('/locked') ? 401 : 404;
        res.writeHead(status, { 'content-type': 'text/html' }).end('<html><body><h1>Welcome</h1></body></html>');
      }),
    );
    try {
      const errorFrom = async (baseURL: string) => {
        const provider = createOpenAICompatible({ name: 'web', baseURL });
        const ck = bench.own(new Crawlkit({ store: 'memory', engine: 'http', llm: provider.chatModel('m') }));
        const response = await ck.scrape({
          url: `${bench.site.url}/faults/product`,
          formats: [{ type: 'json', schema }],
        });
        expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
        return (response as ErrorResponse).error;
      };
      expect(await errorFrom(`${web.url}/site`)).toBe(
        `The language model request failed: the server at ${web.url}/site/chat/completions answered 200 with a ` +
          'body that is not a chat completion, beginning "<html><body><h1>Welcome</h1></body></html>": check the ' +
          "model's base URL (`--model-base-url`, OPENAI_BASE_URL or the provider's `baseURL`): an OpenAI-compatible " +
          'API, which Ollama, llama.cpp, vLLM and LM Studio serve under `/v1`.',
      );
      expect(await errorFrom(web.url)).toMatch(
        /answered 404 \(Not Found\): check the model's base URL .* under `\/v1`, and the model's name\.$/,
      );
      expect(await errorFrom(`${web.url}/locked`)).toMatch(/answered 401 \(Unauthorized\): check the model's API key/);
    } finally {
      await web.close();
    }
  });
});

describe("a page longer than the model's context", () => {
  it('is cut to fit the context the server states, with the trim warning', async () => {
    const small = await startLlmServer({ contextTokens: 1_000 });
    try {
      const provider = createOpenAICompatible({ name: 'vllm', baseURL: small.url, supportsStructuredOutputs: true });
      const ck = new Crawlkit({ store: 'memory', engine: 'http', llm: provider.chatModel('small-context') });
      bench.own(ck);
      const response = await ck.scrape({ url: `${bench.site.url}/faults/long`, formats: [{ type: 'json', schema }] });
      expect(response).toMatchObject({ success: true, data: { json: { title: 'Long' } } });
      expect(small.requests).toHaveLength(2);
      const sent = (n: number) => JSON.stringify(small.requests[n]!.body.messages).length;
      expect(sent(1)).toBeLessThan(sent(0));
      expect((response as { data: { warning?: string } }).data.warning).toMatch(
        /The extraction content would have used more tokens \(\d+\) than the maximum we allow \(\d+\)\. -- the input has been automatically trimmed\./,
      );
      // The next long page starts from the cut that fitted. Before: refused first again, two requests a page.
      const next = await ck.scrape({ url: `${bench.site.url}/faults/long?next`, formats: [{ type: 'json', schema }] });
      expect(next).toMatchObject({ success: true, data: { json: { title: 'Long' } } });
      expect(small.requests).toHaveLength(3);
    } finally {
      await small.close();
    }
  });

  it('is refused with what to change when even the cut page does not fit', async () => {
    const tiny = await startLlmServer({ contextTokens: 60 });
    try {
      const provider = createOpenAICompatible({ name: 'vllm', baseURL: tiny.url, supportsStructuredOutputs: true });
      const ck = new Crawlkit({
        store: 'memory',
        engine: 'http',
        llm: { model: provider.chatModel('tiny-context'), maxInputTokens: 4_000 },
      });
      bench.own(ck);
      const response = await ck.scrape({ url: `${bench.site.url}/faults/long`, formats: [{ type: 'json', schema }] });
      expect(response).toMatchObject({ success: false, code: 'LLM_CONTEXT_EXCEEDED' });
      const { error } = response as ErrorResponse;
      expect(error).toContain('maximum context length is 60 tokens');
      expect(error).toMatch(/lower `llm\.maxInputTokens` \(now 4000\b/);
      // The instructions alone overflow it: no second request is made.
      expect(tiny.requests).toHaveLength(1);
    } finally {
      await tiny.close();
    }
  });
});

describe('answers that are no JSON', () => {
  it('fails a json cut at the output limit at once, saying which setting to raise', async () => {
    const ck = engine({ maxOutputTokens: 8 });
    bench.llm.enqueue({ content: '{"title": "Aurora De', finishReason: 'length' });
    const response = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_EXTRACTION_FAILED' });
    expect((response as ErrorResponse).error).toMatch(/cut at the output limit.*Raise `llm\.maxOutputTokens` \(now 8;/);
    // A repair round would be cut the same way: none is asked for.
    expect(bench.llm.requests).toHaveLength(1);
    expect(bench.llm.requests[0]!.body.max_tokens).toBe(8);
  });

  it('says the model answered nothing when it sent a tool call or empty content', async () => {
    const ck = engine();
    bench.llm.enqueue({ toolCall: { name: 'extract', arguments: '{}' } }, '');
    const response = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_EXTRACTION_FAILED' });
    expect((response as ErrorResponse).error).toContain('the answer is empty');
    expect(bench.llm.requests).toHaveLength(2);
  });

  it('quotes the start of an answer that is prose, such as a refusal', async () => {
    const ck = engine();
    bench.llm.enqueue({ refusal: 'I cannot help with that request.' }, 'Sorry, I cannot help with that request.');
    const response = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect((response as ErrorResponse).error).toContain(
      'it is not valid JSON (it begins "Sorry, I cannot help with that request.")',
    );
  });
});

describe('a server that asks to wait', () => {
  it('retries after the Retry-After the server gives', async () => {
    const ck = engine();
    bench.llm.enqueue({ status: 429, headers: { 'retry-after': '1' } });
    const response = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
    expect(bench.llm.requests).toHaveLength(2);
    expect(bench.llm.requests[1]!.at - bench.llm.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('retries an answer cut off by a lost connection, after the first back-off', async () => {
    const ck = engine();
    bench.llm.enqueue({ hangUp: 'mid' });
    const response = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
    expect(bench.llm.requests).toHaveLength(2);
    expect(bench.llm.requests[1]!.at - bench.llm.requests[0]!.at).toBeGreaterThanOrEqual(1_950);
  });

  it('says the answer was cut off when the connection is lost after the status line', async () => {
    const ck = engine({ maxRetries: 0 });
    bench.llm.enqueue({ hangUp: 'mid' });
    const response = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
    expect((response as ErrorResponse).error).toMatch(
      /^The language model request failed: the server's answer \(200\) was cut off \(/,
    );
  });

  it('gives up at once, saying so, when the server asks for longer than a call may wait', async () => {
    const ck = engine();
    const busy = { status: 429, headers: { 'retry-after': '120' }, body: { error: { message: 'Rate limit reached' } } };
    bench.llm.enqueue(busy, busy, busy);
    const response = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
    expect((response as ErrorResponse).error).toContain('asks to retry after 120 s');
    expect((response as ErrorResponse).error).toContain('Rate limit reached');
    expect(bench.llm.requests).toHaveLength(1);
  });

  it('names the status and the server message after the last retry', async () => {
    const ck = engine({ maxRetries: 2 });
    const down = { status: 503, headers: { 'retry-after': '0' }, body: { error: { message: 'model is loading' } } };
    bench.llm.enqueue(down, down, down);
    const response = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
    expect((response as ErrorResponse).error).toBe(
      'The language model request failed: the server answered 503 (model is loading), 3 times.',
    );
  });
});

describe('a batch against a slow server', () => {
  it('keeps llm.concurrency requests in flight at most, retries included, and loses no page', async () => {
    const ck = engine({ concurrency: 2 });
    let n = 0;
    // Slow answers, and every third request a 503 to retry at once: the retry stays in its task's slot.
    bench.llm.rule = () => (++n % 3 === 0 ? { status: 503, headers: { 'retry-after': '0' } } : { slowChunkMs: 10 });
    const urls = Array.from({ length: 12 }, (_, i) => `${bench.site.url}/faults/product?page=${i}`);
    const started = await ck.batchScrape({ urls, formats: [{ type: 'json', schema }], maxConcurrency: 12 });
    if (!started.success) throw new Error(started.error);
    const finished = await ck.waitForJob(started.id);
    if (!finished.success) throw new Error(finished.error);
    expect(finished.data).toHaveLength(12);
    expect(bench.llm.maxInFlight).toBe(2);
    expect(bench.llm.requests.length).toBeGreaterThan(12);
  });
});
