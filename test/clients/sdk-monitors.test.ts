/**
 * The monitor methods of the latest `@mendable/firecrawl-js` against the built `crawlkit serve` (the other methods:
 * sdk.test.ts).
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { describe, expect, it } from 'vitest';

import { until } from '../helpers-batch.ts';
import { useClientStack, type ClientStack } from './harness.ts';
import { board } from './site.ts';

let stack: ClientStack;
let fc: Firecrawl;
useClientStack((started) => ([stack, fc] = [started, new Firecrawl({ apiKey: started.key, apiUrl: started.url })]));

const ARTICLE = '/articles/first-post.html';

describe('monitors', () => {
  /** The check once its crawls have ended. */
  async function ended(monitorId: string, checkId: string) {
    await until(async () => (await fc.getMonitorCheck(monitorId, checkId)).status !== 'running', 60_000);
    return fc.getMonitorCheck(monitorId, checkId, { limit: 1 });
  }

  it('every monitor method; a check sees the page change, with its diff, paged by the SDK', async () => {
    board.text = 'The No. 4 plane costs $129 today.';
    // January 1st only: no scheduled check fires during the test.
    const monitor = await fc.createMonitor({
      name: 'price board',
      schedule: { cron: '0 0 1 1 *', timezone: 'UTC' },
      targets: [{ type: 'scrape', urls: [stack.page('/monitor/board.html'), stack.page(ARTICLE)] }],
      webhook: { url: stack.page('/monitor/hook'), events: ['monitor.page'] },
    });
    expect(monitor).toMatchObject({
      name: 'price board',
      status: 'active',
      schedule: { cron: '0 0 1 1 *', timezone: 'UTC' },
      targets: [{ type: 'scrape', urls: [stack.page('/monitor/board.html'), stack.page(ARTICLE)] }],
      webhook: { url: stack.page('/monitor/hook'), events: ['new', 'changed', 'removed'] },
    });
    expect(Date.parse(monitor.nextRunAt!)).toBeGreaterThan(Date.now());
    expect((await fc.getMonitor(monitor.id)).name).toBe('price board');
    expect((await fc.listMonitors({ limit: 10 })).map((m) => m.id)).toContain(monitor.id);

    const first = await fc.runMonitor(monitor.id);
    expect(first).toMatchObject({ monitorId: monitor.id, trigger: 'manual' });
    expect((await ended(monitor.id, first.id)).summary).toMatchObject({ totalPages: 2, new: 2 });

    board.text = 'The No. 4 plane costs $119 today.';
    const second = await fc.runMonitor(monitor.id);
    // `limit: 1` and the SDK's auto-pagination: both pages, read by following `next`.
    const detail = await ended(monitor.id, second.id);
    expect(detail).toMatchObject({ status: 'completed', summary: { totalPages: 2, changed: 1, same: 1 }, next: null });
    const changed = detail.pages.find((p) => p.status === 'changed')!;
    expect(changed.url).toBe(stack.page('/monitor/board.html'));
    expect(changed.diff?.text).toContain('+The No. 4 plane costs $119 today.');
    const onlyChanged = await fc.getMonitorCheck(monitor.id, second.id, { status: 'changed' });
    expect(onlyChanged.pages.map((p) => p.url)).toEqual([stack.page('/monitor/board.html')]);
    expect((await fc.listMonitorChecks(monitor.id)).map((c) => c.id)).toEqual([second.id, first.id]);
    expect((await fc.getMonitor(monitor.id)).lastCheckSummary).toMatchObject({ changed: 1, same: 1 });

    const paused = await fc.updateMonitor(monitor.id, { status: 'paused', schedule: { text: 'every 2 hours' } });
    expect(paused).toMatchObject({ status: 'paused', nextRunAt: null, schedule: { cron: '0 */2 * * *' } });
    expect(await fc.deleteMonitor(monitor.id)).toBe(true);
    const gone = await fc.getMonitor(monitor.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(SdkError);
    expect((gone as SdkError).status).toBe(404);
  }, 120_000);

  it('a goal: the changed page judged by the model of the server (MonitorPageJudgment)', async () => {
    board.text = 'The No. 4 plane costs $129 today.';
    const monitor = await fc.createMonitor({
      name: 'judged board',
      schedule: { cron: '0 0 1 1 *' },
      targets: [{ type: 'scrape', urls: [stack.page('/monitor/board.html')] }],
      goal: 'price drops of hand planes',
    });
    expect(monitor).toMatchObject({ goal: 'price drops of hand planes', judgeEnabled: true });
    await ended(monitor.id, (await fc.runMonitor(monitor.id)).id);

    const judgment = {
      meaningful: true,
      confidence: 'high',
      reason: 'The plane is $10 cheaper.',
      meaningfulChanges: [{ type: 'changed', before: '$129', after: '$119', reason: 'A price drop.' }],
    };
    stack.llm.enqueue(JSON.stringify(judgment));
    board.text = 'The No. 4 plane costs $119 today.';
    const second = await fc.runMonitor(monitor.id);
    const detail = await ended(monitor.id, second.id);
    expect(detail.pages).toEqual([expect.objectContaining({ status: 'changed', judgment })]);
    const asked = JSON.stringify(stack.llm.requests.at(-1)!.body.messages);
    expect(asked).toContain('price drops of hand planes');
    expect(asked).toContain('+The No. 4 plane costs $119 today.');
    expect(await fc.deleteMonitor(monitor.id)).toBe(true);
  }, 120_000);

  it('a search target: each check runs the query on the stored pages (no provider), a page found since is new', async () => {
    await fc.scrape(stack.page('/shop/plane.html'), { formats: ['markdown'] });
    const monitor = await fc.createMonitor({
      name: 'bedded irons',
      schedule: { cron: '0 0 1 1 *' },
      targets: [{ id: 'web', type: 'search', queries: ['bedded iron'], maxResults: 5 }],
    });
    expect(monitor.targets).toEqual([{ id: 'web', type: 'search', queries: ['bedded iron'], maxResults: 5 }]);
    // What else the server stored by now (the crawls above) may match too.
    const first = await fc.runMonitor(monitor.id);
    expect(first.targetResults).toEqual([
      expect.objectContaining({
        targetId: 'web',
        type: 'search',
        searchCompleted: true,
        resultCount: expect.any(Number),
      }),
    ]);
    const before = await ended(monitor.id, first.id);
    expect(before.pages.map((p) => [p.url, p.status])).toContainEqual([stack.page('/shop/plane.html'), 'new']);
    expect(before.summary).toMatchObject({ new: before.summary.totalPages });

    board.text = 'A bedded iron plane costs $119 today.';
    await fc.scrape(stack.page('/monitor/board.html'), { formats: ['markdown'], maxAge: 0 });
    const second = await fc.runMonitor(monitor.id);
    const after = await ended(monitor.id, second.id);
    expect(after.summary).toMatchObject({ totalPages: before.summary.totalPages + 1, new: 1 });
    expect(after.pages.filter((p) => p.status === 'new').map((p) => p.url)).toEqual([
      stack.page('/monitor/board.html'),
    ]);
    expect(await fc.deleteMonitor(monitor.id)).toBe(true);
  }, 120_000);

  it('refuses email notifications with a 400 saying what to use', async () => {
    const base = { name: 'x', schedule: { text: 'hourly' } };
    const email = await fc
      .createMonitor({
        ...base,
        targets: [{ type: 'scrape', urls: [stack.page(ARTICLE)] }],
        notification: { email: { enabled: true, recipients: ['me@example.com'] } },
      })
      .catch((e: unknown) => e);
    expect(email).toBeInstanceOf(SdkError);
    expect((email as SdkError).status).toBe(400);
    expect((email as SdkError).message).toContain('crawlkit sends no email');
  });
});
