/**
 * A page that begins to redirect between two runs: the change feed keys a page by the URL it ends at, so the page at
 * the old URL is `removed` and the one at the redirect's target `new`. Both are named by the URL they are keyed by:
 * named by the URL asked for, the feed, a monitor's check and a schedule's webhook said `new` and `removed` of the
 * same URL, and the webhook (its event ids derived from the URL) sent only one of the two.
 */
import { Crawlkit, type ScheduleChangePayload } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { startReceiver, until, type Receiver } from './helpers-batch.ts';
import { closedCheck, ok } from './monitors-helpers.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let receiver: Receiver;
/** Whether `/pricing` redirects to `/plans` (the page moved). */
let moved = false;

beforeAll(async () => {
  site = await startRouteSite({
    '/': (_req, res) => sendPage(res, 'Home', '<p>The shop.</p><a href="/pricing">Pricing</a>'),
    '/pricing': (_req, res) => {
      if (moved) res.writeHead(301, { location: '/plans' }).end();
      else sendPage(res, 'Pricing', '<p>The Pro plan costs 49 dollars a month.</p>');
    },
    '/plans': (_req, res) => sendPage(res, 'Plans', '<p>The Pro plan costs 49 dollars a month, on its new page.</p>'),
  });
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await site?.close();
});

const paths = (entries: { url: string; change?: string; status?: string }[]) =>
  entries.map((e) => `${e.change ?? e.status} ${new URL(e.url).pathname}`).sort();

describe('a page that began to redirect', { timeout: 60_000 }, () => {
  it('is removed at its old URL and new at its target, in the feed and the crawl webhook of a schedule', async () => {
    moved = false;
    const ck = new Crawlkit({ store: 'memory', engine: 'http', runSchedules: true });
    try {
      const created = ok(
        await ck.schedules.create({
          every: '1h',
          targets: [{ type: 'crawl', url: `${site.url}/`, sitemap: 'skip' }],
          webhook: { url: receiver.url, events: ['new', 'changed', 'removed'] },
        }),
      );
      const id = created.data.id;
      await until(async () => ok(await ck.schedules.get(id)).data.lastRun?.jobIds.length === 1);
      const first = ok(await ck.schedules.get(id)).data.lastRun!.jobIds[0]!;
      await ck.waitForJob(first);
      moved = true;
      const run = ok(await ck.schedules.run(id)).data;
      const second = run.jobIds[0]!;
      await ck.waitForJob(second);
      const feed = ok(await ck.getCrawlChanges(second));
      expect(paths(feed.data)).toEqual(['new /plans', 'removed /pricing', 'same /']);
      const sent = () =>
        receiver.events
          .map((e) => e.payload as unknown as ScheduleChangePayload)
          .filter((p) => p.type === 'schedule.change' && p.jobId === second)
          .map((p) => p.data[0]);
      await until(() => sent().length === 2);
      expect(paths(sent())).toEqual(['new /plans', 'removed /pricing']);
    } finally {
      await ck.close();
    }
  });

  it("is removed at its old URL and new at its target in a monitor's check", async () => {
    moved = false;
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const id = ok(
        await ck.monitors.create({
          name: 'pricing',
          schedule: { text: 'every 30 minutes' },
          targets: [{ type: 'scrape', urls: [`${site.url}/pricing`] }],
        }),
      ).data.id;
      await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
      moved = true;
      const check = await closedCheck(ck, id, ok(await ck.monitors.run(id)).data.id);
      expect(paths(check.pages)).toEqual(['new /plans', 'removed /pricing']);
    } finally {
      await ck.close();
    }
  });
});
