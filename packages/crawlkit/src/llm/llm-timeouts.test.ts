/**
 * The LLM formats against a model server that is slow or refuses: what a page says when its time runs out on the
 * model, how pages queue for a model slot, and a schema the server refuses.
 */
import { describe, expect, it } from 'vitest';

import type { FormatInput } from '../v2/formats.js';
import type { ErrorResponse } from '../v2/types.js';
import { schema, faultRoutes, useLlmSite } from './__fixtures__/llm-site.js';

const bench = useLlmSite(faultRoutes);
const engine = bench.engine.bind(bench);

/** The product page scraped by a new engine with 1.5 s for the page, the model's answer queued before. */
const scrapeIn1500ms = (formats: FormatInput[]) =>
  engine().scrape({ url: `${bench.site.url}/faults/product`, timeout: 1_500, formats });

describe('a page that times out on the model', () => {
  it('says the model had not answered, when a call hangs', async () => {
    bench.llm.enqueue({ stallMidBodyMs: 60_000 });
    const response = await scrapeIn1500ms([{ type: 'json', schema }]);
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect((response as ErrorResponse).error).toMatch(
      /^Scrape timed out after 1500 ms while extracting with the language model: it had not answered after \d+ ms\./,
    );
  });

  it("says the model's server asked to wait, when the page's time runs out in a Retry-After", async () => {
    bench.llm.enqueue({
      status: 429,
      headers: { 'retry-after': '30' },
      body: { error: { message: 'Rate limit reached' } },
    });
    const response = await scrapeIn1500ms([{ type: 'json', schema }]);
    // Before: 'the language model had not answered after 1490 ms', though it had answered at once, with a 429.
    expect(response).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
    expect((response as ErrorResponse).error).toBe(
      'Scrape timed out after 1500 ms while extracting with the language model: its server answered 429, ' +
        'Retry-After, and the page ran out of time while waiting 30000 ms to ask again. Raise `timeout`, or lower `llm.concurrency` so fewer ' +
        'calls reach the server at once.',
    );
  });

  it('says so for the question format too', async () => {
    bench.llm.enqueue({ delayMs: 60_000 });
    const response = await scrapeIn1500ms([{ type: 'question', question: 'What does the lamp cost?' }]);
    expect((response as ErrorResponse).error).toMatch(
      /^Scrape timed out after 1500 ms while extracting with the language model: it had not/,
    );
  });

  /** An engine with one model slot, held by a direct scrape whose model answers after `delayMs`. */
  async function slotHeld(delayMs: number) {
    const ck = engine({ concurrency: 1 });
    bench.llm.enqueue({ delayMs });
    const url = `${bench.site.url}/faults/product`;
    const holder = ck.scrape({ url, formats: [{ type: 'json', schema }] });
    await expect.poll(() => bench.llm.requests.length, { timeout: 15_000 }).toBe(1);
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
    await expect
      .poll(() => bench.site.requests.some((r) => r.path.endsWith('?second')), { timeout: 15_000 })
      .toBe(true);
    const aborted = Date.now();
    controller.abort();
    expect(await waiting).toMatchObject({ success: false, code: 'ABORTED' });
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect(bench.llm.requests).toHaveLength(1);
    expect(await holder).toMatchObject({ success: true });
  });
});

describe('a batch whose pages queue for one model slot', () => {
  it('loses no page to its timeout while it waits for the slot', async () => {
    // 40 pages at once, one slot, 300 ms a model answer: the last page waits about 12 s for the model, half again its
    // timeout, though its own work fits the timeout many times (with 4 s, at load 20, two pages' fetch and wait for
    // an extraction worker took it all: 1.4 s and 2.6 s).
    const ck = engine({ concurrency: 1 }, { concurrency: 40 });
    bench.llm.rule = () => ({ delayMs: 300 });
    const urls = Array.from({ length: 40 }, (_, i) => `${bench.site.url}/faults/product?page=${i}`);
    const started = await ck.batchScrape({
      urls,
      formats: [{ type: 'json', schema }],
      timeout: 8_000,
      maxConcurrency: 40,
    });
    if (!started.success) throw new Error(started.error);
    const finished = await ck.waitForJob(started.id);
    if (!finished.success) throw new Error(finished.error);
    const errors = await ck.getBatchScrapeErrors(started.id);
    if (!('errors' in errors)) throw new Error(errors.error);
    expect(errors.errors.map((e) => e.error)).toEqual([]);
    expect(finished.data).toHaveLength(40);
    expect(bench.llm.maxInFlight).toBe(1);
  }, 60_000);
});

describe('a schema the server refuses', () => {
  it('is asked without a response format, but the next schema still gets one', async () => {
    const ck = engine();
    const invalid = "Invalid schema for response_format 'response': In context=(), 'required' is required";
    bench.llm.enqueue({ status: 400, body: { error: { message: invalid } } });
    const first = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(first).toMatchObject({ success: true, data: { json: { price: 49.5 } } });
    const second = await ck.scrape({ url: `${bench.site.url}/faults/product`, formats: [{ type: 'json', schema }] });
    expect(second).toMatchObject({ success: true });
    expect(bench.llm.requests.map((r) => r.body.response_format?.type ?? 'none')).toEqual([
      'json_schema',
      'none',
      'json_schema',
    ]);
  });
});
