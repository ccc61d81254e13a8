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

// Distinct paragraphs (main-content extraction drops repeats): about 3,000 tokens.
const LONG = `<!doctype html><html lang="en"><head><title>Long</title></head><body><main><h1>Long</h1>${Array.from(
  { length: 200 },
  (_, i) => `<p>Paragraph ${i}: the lamp was tested in room ${i * 7} under ${i % 13} lights.</p>`,
).join('')}<p>Price: 49.50</p></main></body></html>`;

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

const html = (body: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

beforeAll(async () => {
  [site, llm] = await Promise.all([
    startFixtureServer({ routes: { '/faults/product': html(PRODUCT), '/faults/long': html(LONG) } }),
    startLlmServer(),
  ]);
});

// A model request whose page timed out ends when its connection closes, which can be after the page's answer: the next
// test starts once it has, or its in-flight counts would include it.
beforeEach(async () => {
  await llm.idle();
  llm.reset();
});

afterAll(() => Promise.all([...engines.map((ck) => ck.close()), llm.close(), site.close()]));

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

describe('a server that sends no usage', () => {
  it('counts estimated tokens for the page and the engine, not 0', async () => {
    const ck = engine();
    llm.rule = () => ({ noUsage: true });
    const response = await ck.scrape({
      url: `${site.url}/faults/product`,
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

describe("a page longer than the model's context", () => {
  it('is cut to fit the context the server states, with the trim warning', async () => {
    const small = await startLlmServer({ contextTokens: 1_000 });
    try {
      const provider = createOpenAICompatible({ name: 'vllm', baseURL: small.url, supportsStructuredOutputs: true });
      const ck = new Crawlkit({ store: 'memory', engine: 'http', llm: provider.chatModel('small-context') });
      engines.push(ck);
      const response = await ck.scrape({ url: `${site.url}/faults/long`, formats: [{ type: 'json', schema }] });
      expect(response).toMatchObject({ success: true, data: { json: { title: 'Long' } } });
      expect(small.requests).toHaveLength(2);
      const sent = (n: number) => JSON.stringify(small.requests[n]!.body.messages).length;
      expect(sent(1)).toBeLessThan(sent(0));
      expect((response as { data: { warning?: string } }).data.warning).toMatch(
        /The extraction content would have used more tokens \(\d+\) than the maximum we allow \(\d+\)\. -- the input has been automatically trimmed\./,
      );
      // The next long page starts from the cut that fitted. Before: refused first again, two requests a page.
      const next = await ck.scrape({ url: `${site.url}/faults/long?next`, formats: [{ type: 'json', schema }] });
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
      engines.push(ck);
      const response = await ck.scrape({ url: `${site.url}/faults/long`, formats: [{ type: 'json', schema }] });
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
    llm.enqueue({ content: '{"title": "Aurora De', finishReason: 'length' });
    const response = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_EXTRACTION_FAILED' });
    expect((response as ErrorResponse).error).toMatch(/cut at the output limit.*Raise `llm\.maxOutputTokens` \(now 8;/);
    // A repair round would be cut the same way: none is asked for.
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.body.max_tokens).toBe(8);
  });

  it('says the model answered nothing when it sent a tool call or empty content', async () => {
    const ck = engine();
    llm.enqueue({ toolCall: { name: 'extract', arguments: '{}' } }, '');
    const response = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_EXTRACTION_FAILED' });
    expect((response as ErrorResponse).error).toContain('the answer is empty');
    expect(llm.requests).toHaveLength(2);
  });

  it('quotes the start of an answer that is prose, such as a refusal', async () => {
    const ck = engine();
    llm.enqueue({ refusal: 'I cannot help with that request.' }, 'Sorry, I cannot help with that request.');
    const response = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect((response as ErrorResponse).error).toContain(
      'it is not valid JSON (it begins "Sorry, I cannot help with that request.")',
    );
  });
});

describe('a server that asks to wait', () => {
  it('retries after the Retry-After the server gives', async () => {
    const ck = engine();
    llm.enqueue({ status: 429, headers: { 'retry-after': '1' } });
    const response = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]!.at - llm.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('retries an answer cut off by a lost connection, after the first back-off', async () => {
    const ck = engine();
    llm.enqueue({ hangUp: 'mid' });
    const response = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]!.at - llm.requests[0]!.at).toBeGreaterThanOrEqual(1_950);
  });

  it('says the answer was cut off when the connection is lost after the status line', async () => {
    const ck = engine({ maxRetries: 0 });
    llm.enqueue({ hangUp: 'mid' });
    const response = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
    expect((response as ErrorResponse).error).toMatch(
      /^The language model request failed: the server's answer \(200\) was cut off \(/,
    );
  });

  it('gives up at once, saying so, when the server asks for longer than a call may wait', async () => {
    const ck = engine();
    const busy = { status: 429, headers: { 'retry-after': '120' }, body: { error: { message: 'Rate limit reached' } } };
    llm.enqueue(busy, busy, busy);
    const response = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(response).toMatchObject({ success: false, code: 'LLM_REQUEST_FAILED' });
    expect((response as ErrorResponse).error).toContain('asks to retry after 120 s');
    expect((response as ErrorResponse).error).toContain('Rate limit reached');
    expect(llm.requests).toHaveLength(1);
  });

  it('names the status and the server message after the last retry', async () => {
    const ck = engine({ maxRetries: 2 });
    const down = { status: 503, headers: { 'retry-after': '0' }, body: { error: { message: 'model is loading' } } };
    llm.enqueue(down, down, down);
    const response = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
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
    llm.rule = () => (++n % 3 === 0 ? { status: 503, headers: { 'retry-after': '0' } } : { slowChunkMs: 10 });
    const urls = Array.from({ length: 12 }, (_, i) => `${site.url}/faults/product?page=${i}`);
    const started = await ck.batchScrape({ urls, formats: [{ type: 'json', schema }], maxConcurrency: 12 });
    if (!started.success) throw new Error(started.error);
    const finished = await ck.waitForJob(started.id);
    if (!finished.success) throw new Error(finished.error);
    expect(finished.data).toHaveLength(12);
    expect(llm.maxInFlight).toBe(2);
    expect(llm.requests.length).toBeGreaterThan(12);
  });
});

describe('a page that times out on the model', () => {
  it('says the model had not answered, when a call hangs', async () => {
    const ck = engine();
    llm.enqueue({ stallMidBodyMs: 60_000 });
    const response = await ck.scrape({
      url: `${site.url}/faults/product`,
      timeout: 1_500,
      formats: [{ type: 'json', schema }],
    });
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect((response as ErrorResponse).error).toMatch(
      /^Scrape timed out after 1500 ms: the language model had not answered after \d+ ms\./,
    );
  });

  it("says the model's server asked to wait, when the page's time runs out in a Retry-After", async () => {
    const ck = engine();
    llm.enqueue({ status: 429, headers: { 'retry-after': '30' }, body: { error: { message: 'Rate limit reached' } } });
    const response = await ck.scrape({
      url: `${site.url}/faults/product`,
      timeout: 1_500,
      formats: [{ type: 'json', schema }],
    });
    // Before: 'the language model had not answered after 1490 ms', though it had answered at once, with a 429.
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect((response as ErrorResponse).error).toBe(
      "Scrape timed out after 1500 ms: the language model's server answered 429, Retry-After, and the page ran out " +
        'of time while waiting 30000 ms to ask again. Raise `timeout`, or lower `llm.concurrency` so fewer ' +
        'calls reach the server at once.',
    );
  });

  it('says so for the question format too', async () => {
    const ck = engine();
    llm.enqueue({ delayMs: 60_000 });
    const response = await ck.scrape({
      url: `${site.url}/faults/product`,
      timeout: 1_500,
      formats: [{ type: 'question', question: 'What does the lamp cost?' }],
    });
    expect((response as ErrorResponse).error).toMatch(/^Scrape timed out after 1500 ms: the language model had not/);
  });

  /** An engine with one model slot, held by a direct scrape whose model answers after `delayMs`. */
  async function slotHeld(delayMs: number) {
    const ck = engine({ concurrency: 1 });
    llm.enqueue({ delayMs });
    const url = `${site.url}/faults/product`;
    const holder = ck.scrape({ url, formats: [{ type: 'json', schema }] });
    await expect.poll(() => llm.requests.length, { timeout: 15_000 }).toBe(1);
    return { ck, url, holder };
  }

  it('does not count a wait for a model slot that a direct call held: the page succeeds', async () => {
    const { ck, url, holder } = await slotHeld(2_500);
    const waiting = await ck.scrape({ url: `${url}?second`, timeout: 1_500, formats: [{ type: 'json', schema }] });
    expect(waiting).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
    expect(await holder).toMatchObject({ success: true });
  });

  it('still ends a page waiting for a model slot at once when its caller aborts', async () => {
    const { ck, url, holder } = await slotHeld(3_000);
    const controller = new AbortController();
    const waiting = ck.scrape(
      { url: `${url}?second`, timeout: 60_000, formats: [{ type: 'json', schema }] },
      { signal: controller.signal },
    );
    await expect.poll(() => site.requests.some((r) => r.path.endsWith('?second')), { timeout: 15_000 }).toBe(true);
    const aborted = Date.now();
    controller.abort();
    expect(await waiting).toMatchObject({ success: false, code: 'ABORTED' });
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect(llm.requests).toHaveLength(1);
    expect(await holder).toMatchObject({ success: true });
  });
});

describe('a batch whose pages queue for one model slot', () => {
  it('loses no page to its timeout while it waits for the slot', async () => {
    // 40 pages at once, one slot, 150 ms a model answer: the last page waits about 6 s for the model, half again its
    // timeout, though its own work fits the timeout many times (with 2 s, 40 pages waiting for the extraction workers
    // at once did not, on a loaded machine: 1.8 s for a worker).
    const ck = engine({ concurrency: 1 }, { concurrency: 40 });
    llm.rule = () => ({ delayMs: 150 });
    const urls = Array.from({ length: 40 }, (_, i) => `${site.url}/faults/product?page=${i}`);
    const started = await ck.batchScrape({
      urls,
      formats: [{ type: 'json', schema }],
      timeout: 4_000,
      maxConcurrency: 40,
    });
    if (!started.success) throw new Error(started.error);
    const finished = await ck.waitForJob(started.id);
    if (!finished.success) throw new Error(finished.error);
    const errors = await ck.getBatchScrapeErrors(started.id);
    if (!('errors' in errors)) throw new Error(errors.error);
    expect(errors.errors.map((e) => e.error)).toEqual([]);
    expect(finished.data).toHaveLength(40);
    expect(llm.maxInFlight).toBe(1);
  }, 60_000);
});

describe('a schema the server refuses', () => {
  it('is asked without a response format, but the next schema still gets one', async () => {
    const ck = engine();
    const invalid = "Invalid schema for response_format 'response': In context=(), 'required' is required";
    llm.enqueue({ status: 400, body: { error: { message: invalid } } });
    const first = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(first).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
    const second = await ck.scrape({ url: `${site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(second).toMatchObject({ success: true });
    expect(llm.requests.map((r) => r.body.response_format?.type ?? 'none')).toEqual([
      'json_schema',
      'none',
      'json_schema',
    ]);
  });
});
