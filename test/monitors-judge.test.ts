/**
 * A monitor's `goal`: with a model (the fixture OpenAI-compatible server), each changed and new page of a check gets
 * the model's judgment, given the goal and the page's diff; a judgment that fails leaves the page in the check with
 * `judgment: null` and the reason; without a model a goal is kept with a warning, and `judgeEnabled: true` refused.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Crawlkit } from 'crawlkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startChangingSite } from '../fixtures/changing-site.ts';
import { startLlmServer, type LlmServer } from '../fixtures/llm-server.ts';
import { closedCheck, ok } from './monitors-helpers.ts';

const day = Date.UTC(2026, 0, 1);
const closers: (() => Promise<void>)[] = [];
let llm: LlmServer;

beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(async () => {
  await llm?.close();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function engine(withModel: boolean, timeoutMs?: number): Crawlkit {
  const model = createOpenAICompatible({ name: 'local', baseURL: llm.url, supportsStructuredOutputs: true });
  const settings = { model: model.chatModel('judge-model'), maxRetries: 0, ...(timeoutMs ? { timeoutMs } : {}) };
  const ck = new Crawlkit({ store: 'memory', engine: 'http', ...(withModel ? { llm: settings } : {}) });
  closers.push(() => ck.close());
  return ck;
}

const PRICE_DROP = {
  meaningful: true,
  confidence: 'high',
  reason: 'The price of the plane fell.',
  meaningfulChanges: [{ type: 'changed', before: 'costs $129', after: 'costs $119', reason: 'A lower price.' }],
};

describe('monitor goals judged by a model', () => {
  it('judges the new and changed pages of a check against the goal; a failed judgment keeps the page', async () => {
    const site = await startChangingSite({
      '/board.html': { title: 'Board', text: 'The No. 4 plane costs $129 today.', modifiedAt: day },
      '/about.html': { title: 'About', text: 'A shop of hand tools.', modifiedAt: day },
    });
    closers.push(() => site.close());
    const ck = engine(true);
    const created = ok(
      await ck.monitors.create({
        name: 'prices',
        schedule: { cron: '0 0 1 1 *' },
        targets: [{ type: 'scrape', urls: [`${site.url}/board.html`, `${site.url}/about.html`] }],
        goal: 'price drops of planes',
      }),
    );
    expect(created.data).toMatchObject({ goal: 'price drops of planes', judgeEnabled: true });
    expect(created.warning).not.toContain('model');
    const id = created.data.id;

    llm.reset();
    const first = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(first.pages.map((p) => p.status)).toEqual(['new', 'new']);
    for (const page of first.pages) expect(page.judgment).toMatchObject({ meaningful: expect.any(Boolean) });
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests.map((r) => r.body.model)).toEqual(['judge-model', 'judge-model']);

    llm.reset();
    llm.enqueue(JSON.stringify(PRICE_DROP));
    site.set('/board.html', { title: 'Board', text: 'The No. 4 plane costs $119 today.' });
    const second = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    const board = second.pages.find((p) => p.url.endsWith('/board.html'))!;
    expect(board).toMatchObject({ status: 'changed', judgment: PRICE_DROP, error: null });
    expect(second.pages.find((p) => p.url.endsWith('/about.html'))).not.toHaveProperty('judgment');
    expect(llm.requests).toHaveLength(1);
    const asked = JSON.stringify(llm.requests[0]!.body.messages);
    expect(asked).toContain('price drops of planes');
    expect(asked).toContain('+The No. 4 plane costs $119 today.');

    // The model fails: the page stays in the check, changed, with `judgment: null` and why.
    llm.reset();
    llm.enqueue({ status: 500 });
    site.set('/board.html', { title: 'Board', text: 'The No. 4 plane costs $99 today.' });
    const third = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(third).toMatchObject({ status: 'completed', summary: { changed: 1, same: 1 } });
    const failed = third.pages.find((p) => p.url.endsWith('/board.html'))!;
    expect(failed).toMatchObject({ status: 'changed', judgment: null });
    expect(failed.error).toContain('The model could not judge this page');
    expect(failed.diff?.text).toContain('+The No. 4 plane costs $99 today.');

    // `judgeEnabled: false` keeps the goal and judges nothing.
    const off = ok(await ck.monitors.update(id, { judgeEnabled: false }));
    expect(off.data).toMatchObject({ goal: 'price drops of planes', judgeEnabled: false });
    llm.reset();
    site.set('/board.html', { title: 'Board', text: 'The No. 4 plane costs $89 today.' });
    const fourth = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
    expect(fourth.summary.changed).toBe(1);
    expect(fourth.pages.every((p) => !('judgment' in p))).toBe(true);
    expect(llm.requests).toHaveLength(0);
    // A null goal removes it.
    expect(ok(await ck.monitors.update(id, { goal: null })).data).toMatchObject({ goal: null, judgeEnabled: false });
  }, 60_000);

  it('a model that does not answer within its timeoutMs leaves the page unjudged, and the check closes', async () => {
    const site = await startChangingSite({ '/slow.html': { title: 'Slow', text: 'Anything.', modifiedAt: day } });
    closers.push(() => site.close());
    const ck = engine(true, 300);
    const created = ok(
      await ck.monitors.create({
        name: 'slow model',
        schedule: { cron: '0 0 1 1 *' },
        targets: [{ type: 'scrape', urls: [`${site.url}/slow.html`] }],
        goal: 'anything',
      }),
    );
    llm.reset();
    llm.enqueue({ content: JSON.stringify(PRICE_DROP), delayMs: 5_000 });
    const check = await closedCheck(ck, created.data.id, ok(await ck.monitors.run(created.data.id)).data.id);
    expect(check).toMatchObject({ status: 'completed', pages: [{ status: 'new', judgment: null }] });
    expect(check.pages[0]!.error).toContain('The model could not judge this page');
  }, 30_000);

  it('without a model: a goal kept with a warning, `judgeEnabled: true` refused', async () => {
    const ck = engine(false);
    const base = {
      name: 'x',
      schedule: { cron: '0 0 1 1 *' },
      targets: [{ type: 'scrape' as const, urls: ['https://a.example/'] }],
    };
    const kept = ok(await ck.monitors.create({ ...base, goal: 'price drops' }));
    expect(kept.data).toMatchObject({ goal: 'price drops', judgeEnabled: true });
    expect(kept.warning).toContain('the changes are not judged');
    const refused = await ck.monitors.create({ ...base, goal: 'price drops', judgeEnabled: true });
    expect(refused).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
    expect((refused as { error: string }).error).toContain('`--model`');
    const noGoal = await ck.monitors.create({ ...base, judgeEnabled: true });
    expect(noGoal).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((noGoal as { error: string }).error).toContain('give one');
    const updated = await ck.monitors.update(kept.data.id, { judgeEnabled: true });
    expect(updated).toMatchObject({ success: false, code: 'LLM_NOT_CONFIGURED' });
  });
});
