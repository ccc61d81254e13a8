/**
 * Schedules (issue 41): a schedule fires its targets as crawls with a change feed and POSTs each change to its
 * webhook; two engines on one store fire once; bad input gets the v2 error shape. A restart of the process:
 * schedule-restart.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { createSqliteStore } from '@crawlkit/store';
import { Crawlkit, type CrawlkitEvents, type ScheduleChangePayload } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import type { ChangingSite } from '../fixtures/changing-site.ts';
import { until, type Receiver } from './helpers-batch.ts';
import { freshSite, useScheduleReceiver } from './helpers/schedule-site.ts';

let site: ChangingSite;
let receiver: Receiver;
const { changesOf } = useScheduleReceiver((started) => (receiver = started));

/** The next event `name` of `ck` that `match` accepts. */
function nextEvent<K extends 'schedule:run' | 'schedule:changes'>(
  ck: Crawlkit,
  name: K,
  match: (e: CrawlkitEvents[K][0]) => boolean,
): Promise<CrawlkitEvents[K][0]> {
  return new Promise((resolve) => {
    const listener = (event: CrawlkitEvents[K][0]) => {
      if (!match(event)) return;
      ck.off(name, listener);
      resolve(event);
    };
    ck.on(name, listener);
  });
}

const nextChanges = (ck: Crawlkit, match: (e: CrawlkitEvents['schedule:changes'][0]) => boolean) =>
  nextEvent(ck, 'schedule:changes', match);

describe('schedules', () => {
  it('fires crawl and scrape targets and POSTs each change of a run to the webhook', async () => {
    site = await freshSite();
    const ck = new Crawlkit({ store: 'memory', engine: 'http', runSchedules: true });
    try {
      const firstCrawl = nextChanges(ck, (e) => e.target === 0);
      const firstScrape = nextChanges(ck, (e) => e.target === 1);
      const created = await ck.schedules.create({
        name: 'docs',
        every: '1h',
        targets: [
          { type: 'crawl', url: `${site.url}/`, sitemap: 'skip', scrapeOptions: { maxAge: 1 } },
          { type: 'scrape', url: `${site.url}/stable.html`, maxAge: 1 },
        ],
        webhook: { url: receiver.url, metadata: { team: 'docs' } },
      });
      if (!created.success) throw new Error(JSON.stringify(created));
      expect(created.warning).toBeUndefined();
      const id = created.data.id;
      // An interval fires at once.
      const [crawl1, scrape1] = await Promise.all([firstCrawl, firstScrape]);
      await until(
        () => Object.keys(changesOf(crawl1.jobId)).length === 4 && Object.keys(changesOf(scrape1.jobId)).length === 1,
      );
      expect(changesOf(crawl1.jobId)).toEqual({
        '/': 'new',
        '/stable.html': 'new',
        '/edited.html': 'new',
        '/deleted.html': 'new',
      });
      // A scrape target is its URL alone.
      expect(changesOf(scrape1.jobId)).toEqual({ '/stable.html': 'new' });
      const event = receiver.events.find(
        (e) => (e.payload as unknown as ScheduleChangePayload).jobId === crawl1.jobId,
      )!;
      expect(event.payload).toMatchObject({ success: true, type: 'schedule.change', id, metadata: { team: 'docs' } });

      site.set('/edited.html', { title: 'Edited', text: 'Second version of the text.' });
      site.pages.delete('/deleted.html');
      site.set('/added.html', { title: 'Added', text: 'A new page.' });
      // The second run, now (its clock would fire in an hour).
      const run2 = await ck.schedules.run(id);
      if (!run2.success) throw new Error(JSON.stringify(run2));
      expect(run2.data.errors).toEqual([]);
      const [crawl2, scrape2] = await Promise.all(
        run2.data.jobIds.map((jobId) => nextChanges(ck, (e) => e.jobId === jobId)),
      );
      await until(() => Object.keys(changesOf(crawl2!.jobId)).length === 4);
      // `same` is not asked for by default: the stable page sends nothing, nor does the scrape target of its URL.
      expect(changesOf(crawl2!.jobId)).toEqual({
        '/': 'changed',
        '/edited.html': 'changed',
        '/added.html': 'new',
        '/deleted.html': 'removed',
      });
      expect(scrape2!.queued).toBe(0);

      const shown = await ck.schedules.get(id);
      if (!shown.success) throw new Error(JSON.stringify(shown));
      expect(shown.data).toMatchObject({ id, name: 'docs', every: '1h', webhook: { url: receiver.url } });
      expect(shown.data.lastRun?.jobIds).toEqual(run2.data.jobIds);
      expect(Date.parse(shown.data.nextRunAt!)).toBeGreaterThan(Date.now() + 3_000_000);
      expect(await ck.schedules.delete(id)).toEqual({ success: true });
      expect(await ck.schedules.get(id)).toMatchObject({ success: false, code: 'SCHEDULE_NOT_FOUND' });
      expect(await ck.schedules.run(id)).toMatchObject({ success: false, code: 'SCHEDULE_NOT_FOUND' });
      expect(await ck.schedules.list()).toEqual({ success: true, data: [] });
    } finally {
      await ck.close();
      await site.close();
    }
  });

  it('sees a change at the next run of a target that sets no maxAge: its page is revalidated, not read from the cache', async () => {
    site = await freshSite();
    const ck = new Crawlkit({ store: 'memory', engine: 'http', runSchedules: true });
    try {
      const first = [0, 1].map((target) => nextChanges(ck, (e) => e.target === target));
      const created = await ck.schedules.create({
        every: '1h',
        targets: [
          { type: 'scrape', url: `${site.url}/edited.html` },
          { type: 'crawl', url: `${site.url}/`, sitemap: 'skip' },
        ],
        webhook: { url: receiver.url },
      });
      if (!created.success) throw new Error(JSON.stringify(created));
      await Promise.all(first);
      site.set('/edited.html', { title: 'Edited', text: 'Second version of the text.' });
      const run2 = await ck.schedules.run(created.data.id);
      if (!run2.success) throw new Error(JSON.stringify(run2));
      const [scrape2, crawl2] = await Promise.all(
        run2.data.jobIds.map((jobId) => nextChanges(ck, (e) => e.jobId === jobId)),
      );
      await until(() => changesOf(scrape2!.jobId)['/edited.html'] !== undefined);
      expect(changesOf(scrape2!.jobId)).toEqual({ '/edited.html': 'changed' });
      await until(() => changesOf(crawl2!.jobId)['/edited.html'] !== undefined);
      expect(changesOf(crawl2!.jobId)).toMatchObject({ '/edited.html': 'changed' });
      // The stable page was asked with its validators and answered 304: a run costs what changed.
      expect(site.notModified.get('/stable.html')).toBe(1);
    } finally {
      await ck.close();
      await site.close();
    }
  });

  it('refuses a bad interval, cron expression or target with a message that says what to fix', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const target = { type: 'crawl' as const, url: 'https://example.com/' };
    try {
      const cases: [object, RegExp][] = [
        [{ every: '6x', targets: [target] }, /`every` must be a duration such as "30s", "15m", "6h"/],
        [{ every: '500ms', targets: [target] }, /`every` must be a duration/],
        [{ every: '0s', targets: [target] }, /`every` must be at least 1s, got "0s"/],
        [{ cron: '61 * * * *', targets: [target] }, /`cron` must be a cron expression .*Invalid value for minute: 61/],
        [{ cron: 'nope', targets: [target] }, /`cron` must be a cron expression of five fields/],
        [{ targets: [target] }, /exactly one of `every` .* and `cron`/],
        [{ every: '1h', cron: '0 * * * *', targets: [target] }, /exactly one of `every`/],
        [{ every: '1h', targets: [{ ...target, tag: 'mine' }] }, /`targets\[0\]\.tag` cannot be set/],
        [{ every: '1h', targets: [{ ...target, limit: -1 }] }, /targets\[0\]\.limit/],
        [
          { every: '1h', targets: [{ type: 'scrape', url: 'https://example.com/', formatz: [] }] },
          /unknown in targets\[0\]: formatz/,
        ],
        [{ every: '1h', targets: [] }, /targets/],
      ];
      for (const [body, message] of cases) {
        const answer = await ck.schedules.create(body as never);
        expect(answer, JSON.stringify(body)).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect((answer as { error: string }).error).toMatch(message);
      }
      expect(await ck.schedules.get('nope')).toMatchObject({ success: false, code: 'SCHEDULE_NOT_FOUND' });
      // Stored by an engine that does not run schedules: it says so.
      const stored = await ck.schedules.create({ cron: '0 0 1 1 *', targets: [target] });
      expect(stored).toMatchObject({ success: true, warning: expect.stringMatching(/does not run schedules/) });
    } finally {
      await ck.close();
    }
  });

  it("a deleted schedule's runs and its targets' last crawls leave the store", async () => {
    site = await freshSite();
    const dir = mkdtempSync(join(tmpdir(), 'ck-schedules-delete-'));
    const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      const created = await ck.schedules.create({
        every: '1h',
        targets: [{ type: 'scrape', url: `${site.url}/stable.html` }],
      });
      if (!created.success) throw new Error(JSON.stringify(created));
      const id = created.data.id;
      const run = await ck.schedules.run(id);
      if (!run.success) throw new Error(JSON.stringify(run));
      await ck.waitForJob(run.data.jobIds[0]!);
      const rows = () => {
        const db = new DatabaseSync(join(dir, 'crawlkit.db'), { readOnly: true });
        try {
          const count = db.prepare('SELECT count(*) AS n FROM history WHERE url = ?');
          return { runs: count.get(id)!.n, lineage: count.get(`tag::schedule:${id}:0`)!.n };
        } finally {
          db.close();
        }
      };
      expect(rows()).toEqual({ runs: 1, lineage: 1 });
      expect(await ck.schedules.delete(id)).toEqual({ success: true });
      expect(rows()).toEqual({ runs: 0, lineage: 0 });
    } finally {
      await ck.close();
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs each firing once when two engines share the store', async () => {
    site = await freshSite();
    const dir = mkdtempSync(join(tmpdir(), 'ck-schedules-shared-'));
    const engines = [0, 1].map(() => new Crawlkit({ storeDir: dir, engine: 'http', runSchedules: true }));
    try {
      const runs: { engine: number; dueAt: number }[] = [];
      engines.forEach((ck, engine) => ck.on('schedule:run', (run) => runs.push({ engine, dueAt: run.dueAt })));
      const created = await engines[0]!.schedules.create({
        every: '1s',
        targets: [{ type: 'scrape', url: `${site.url}/stable.html` }],
      });
      if (!created.success) throw new Error(JSON.stringify(created));
      // Both engines look at the store: the second one's first look finds the schedule too.
      await engines[1]!.schedules.list();
      await until(() => runs.length >= 5, 30_000);
      await engines[0]!.schedules.delete(created.data.id);
      const dueAts = runs.map((r) => r.dueAt);
      expect(new Set(dueAts).size).toBe(dueAts.length);
    } finally {
      await Promise.all(engines.map((ck) => ck.close()));
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('skips a stored schedule it cannot read, says so once, and fires the others', async () => {
    site = await freshSite();
    const dir = mkdtempSync(join(tmpdir(), 'ck-schedules-unreadable-'));
    try {
      // A record no crawlkit wrote (or a newer one did), due now.
      const store = await createSqliteStore({ dir });
      await store.schedules!.put({ id: 'broken', value: '{"v":99}', nextRunAt: Date.now() - 1_000, createdAt: 0 });
      await store.close();

      const ck = new Crawlkit({ storeDir: dir, engine: 'http', runSchedules: true });
      const warnings: string[] = [];
      ck.on('warning', (w) => {
        if (w.code === 'SCHEDULE_UNREADABLE') warnings.push(w.message);
      });
      try {
        const runs: string[] = [];
        ck.on('schedule:run', (run) => runs.push(run.id));
        const created = await ck.schedules.create({
          every: '1s',
          targets: [{ type: 'scrape', url: `${site.url}/stable.html` }],
        });
        if (!created.success) throw new Error(JSON.stringify(created));
        await until(() => runs.filter((id) => id === created.data.id).length >= 2, 30_000);
        expect(runs).not.toContain('broken');
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/Schedule broken cannot be read .* Delete it and create it again\./);
        // The list shows the others and names the one it cannot read, rather than failing whole.
        const listed = await ck.schedules.list();
        if (!listed.success) throw new Error(JSON.stringify(listed));
        expect(listed.data.map((view) => view.id)).toEqual([created.data.id]);
        expect(listed.warning).toMatch(
          /^1 schedule\(s\) cannot be read and are not listed: broken \(.*version 99.*\)\. Upgrade crawlkit if/,
        );
      } finally {
        await ck.close();
      }
    } finally {
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
