/**
 * `schedules.update` (`PATCH /v2/schedule/:id`, `crawlkit schedules update`): a schedule changed in place keeps its id,
 * its runs and its status; a target given as it was keeps its change feed, a replaced one starts anew; bad input gets
 * the v2 error shape and changes nothing.
 */
import { Crawlkit, type CrawlkitEvents, type ScheduleChangePayload } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startChangingSite, type ChangingSite } from '../fixtures/changing-site.ts';
import { startReceiver, until, type Receiver } from './helpers-batch.ts';

const day = Date.UTC(2026, 0, 1);
/** A cron expression that fires once a year: runs here are the test's own (`run`). */
const YEARLY = '0 0 1 1 *';

let site: ChangingSite;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  site = await startChangingSite({
    '/stable.html': { title: 'Stable', text: 'This page never changes.', modifiedAt: day },
    '/edited.html': { title: 'Edited', text: 'First version of the text.', modifiedAt: day },
  });
});

afterAll(async () => {
  await receiver.close();
  await site.close();
});

/** The schedule webhooks received for a crawl job, as `path: change`. */
function changesOf(jobId: string): Record<string, string> {
  const events = receiver.events
    .map((e) => e.payload as unknown as ScheduleChangePayload)
    .filter((p) => p.type === 'schedule.change' && p.jobId === jobId);
  return Object.fromEntries(events.map((p) => [new URL(p.data[0].url).pathname, p.data[0].change]));
}

/** The next `schedule:changes` event of the crawl `jobId`. */
function changesDone(ck: Crawlkit, jobId: string): Promise<CrawlkitEvents['schedule:changes'][0]> {
  return new Promise((resolve) => {
    const listener = (event: CrawlkitEvents['schedule:changes'][0]) => {
      if (event.jobId !== jobId) return;
      ck.off('schedule:changes', listener);
      resolve(event);
    };
    ck.on('schedule:changes', listener);
  });
}

/** Runs the schedule now and waits for each target's changes to be queued; the run's crawls. */
async function runNow(ck: Crawlkit, id: string): Promise<string[]> {
  const run = await ck.schedules.run(id);
  if (!run.success) throw new Error(JSON.stringify(run));
  const jobIds = run.data.jobIds as string[];
  await Promise.all(jobIds.map((jobId) => changesDone(ck, jobId)));
  return jobIds;
}

describe('updating a schedule', () => {
  it('keeps its id and runs; a replaced target starts its feed anew, a kept one compares as before', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http', runSchedules: true });
    try {
      // With a header: its value is sealed anew each time it is stored, and the target is still the same.
      const kept = {
        type: 'scrape' as const,
        url: `${site.url}/edited.html`,
        maxAge: 1,
        headers: { 'x-team': 'docs' },
      };
      const created = await ck.schedules.create({
        name: 'docs',
        cron: YEARLY,
        targets: [kept, { type: 'scrape', url: `${site.url}/stable.html`, maxAge: 1 }],
        webhook: { url: receiver.url, events: ['new', 'changed', 'removed'] },
      });
      if (!created.success) throw new Error(JSON.stringify(created));
      const id = created.data.id;
      const first = await runNow(ck, id);
      await until(() => first.every((jobId) => Object.keys(changesOf(jobId)).length === 1));

      const updated = await ck.schedules.update(id, {
        name: 'docs, hourly',
        every: '1h',
        targets: [kept, { type: 'scrape', url: `${site.url}/edited.html?page=2`, maxAge: 1 }],
      });
      if (!updated.success) throw new Error(JSON.stringify(updated));
      expect(updated.data).toMatchObject({ id, name: 'docs, hourly', every: '1h', status: 'active' });
      expect(updated.data).not.toHaveProperty('cron');
      expect(updated.data.webhook).toMatchObject({ url: receiver.url });
      expect(updated.data.lastRun?.jobIds).toEqual(first);
      // A new interval counts from the update: no firing at once.
      const next = Date.parse(updated.data.nextRunAt!);
      expect(next).toBeGreaterThan(Date.now() + 3_500_000);
      expect(next).toBeLessThanOrEqual(Date.now() + 3_600_000);

      site.set('/edited.html', { title: 'Edited', text: 'Second version of the text.' });
      const second = await runNow(ck, id);
      await until(
        () => Object.keys(changesOf(second[0]!)).length === 1 && Object.keys(changesOf(second[1]!)).length > 0,
      );
      // The kept target compares with its last crawl; the replaced one has none (not its predecessor's page removed).
      expect(changesOf(second[0]!)).toEqual({ '/edited.html': 'changed' });
      expect(changesOf(second[1]!)).toEqual({ '/edited.html': 'new' });
      const listed = await ck.schedules.list();
      expect(listed.success && listed.data.map((s) => s.id)).toEqual([id]);
    } finally {
      await ck.close();
    }
  });

  it('keeps a paused schedule paused, takes a time zone alone for its cron, and removes a name or webhook', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const created = await ck.schedules.create({
        name: 'nightly',
        cron: '0 3 * * *',
        targets: [{ type: 'scrape', url: `${site.url}/stable.html` }],
        webhook: receiver.url,
      });
      if (!created.success) throw new Error(JSON.stringify(created));
      const id = created.data.id;
      await ck.schedules.pause(id);
      const moved = await ck.schedules.update(id, { timezone: 'Asia/Tokyo', name: null, webhook: null });
      if (!moved.success) throw new Error(JSON.stringify(moved));
      expect(moved.data).toMatchObject({ id, cron: '0 3 * * *', timezone: 'Asia/Tokyo', status: 'paused' });
      expect(moved.data.nextRunAt).toBeNull();
      expect(moved.data).not.toHaveProperty('name');
      expect(moved.data).not.toHaveProperty('webhook');
      const resumed = await ck.schedules.resume(id);
      if (!resumed.success) throw new Error(JSON.stringify(resumed));
      // 03:00 in Tokyo is 18:00 UTC.
      expect(new Date(resumed.data.nextRunAt!).getUTCHours()).toBe(18);
    } finally {
      await ck.close();
    }
  });

  it('refuses bad input with the v2 error shape and changes nothing', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const created = await ck.schedules.create({ every: '6h', targets: [{ type: 'scrape', url: `${site.url}/` }] });
      if (!created.success) throw new Error(JSON.stringify(created));
      const id = created.data.id;
      const refusals: [unknown, string][] = [
        [{ every: '1h', cron: YEARLY }, 'Give one of `every` and `cron`'],
        [{ timezone: 'Europe/Paris' }, '`timezone` goes with `cron`'],
        [{ every: '1 hour' }, '`every` must be a duration'],
        [{ cron: YEARLY, timezone: 'Mars/Olympus' }, 'is not a time zone'],
        [{ targets: [] }, 'targets'],
        [{ targets: [{ type: 'scrape', url: `${site.url}/`, tag: 'mine' }] }, '`targets[0].tag` cannot be set'],
        [{ interval: '1h' }, 'interval'],
      ];
      for (const [body, message] of refusals) {
        const answer = await ck.schedules.update(id, body as never);
        expect(answer, JSON.stringify(body)).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect((answer as { error: string }).error).toContain(message);
      }
      expect(await ck.schedules.update('nope', { every: '1h' })).toMatchObject({
        success: false,
        code: 'SCHEDULE_NOT_FOUND',
      });
      expect(await ck.schedules.get(id)).toEqual(created.success && { success: true, data: created.data });
      // A monitor's schedule is the monitor's to change.
      const monitor = await ck.monitors.create({
        name: 'pages',
        schedule: { cron: YEARLY },
        targets: [{ type: 'scrape', urls: [`${site.url}/stable.html`] }],
      });
      if (!monitor.success) throw new Error(JSON.stringify(monitor));
      const refused = await ck.schedules.update(monitor.data.id, { name: 'mine' });
      expect(refused).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      expect((refused as { error: string }).error).toContain(`PATCH /v2/monitor/${monitor.data.id}`);
    } finally {
      await ck.close();
    }
  });
});
