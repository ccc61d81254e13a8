/**
 * A schedule's clock in a time zone, its pause and its place in the list: a cron is read in its `timezone`; a paused
 * schedule keeps what its next run compares with and resumes on its clock (API and HTTP); schedules list in the
 * order they were made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { startServer } from '@crawlkit/server';
import { createSqliteStore } from '@crawlkit/store';
import { Crawlkit, type CrawlkitEvents } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { startChangingSite } from '../fixtures/changing-site.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('schedules paused, resumed and listed', () => {
  it('reads a cron in its time zone, and refuses a zone that is none or goes with an interval', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    const target = { type: 'crawl' as const, url: 'https://example.com/' };
    try {
      const cases: [object, RegExp][] = [
        [{ every: '1h', timezone: 'Europe/Paris', targets: [target] }, /`timezone` goes with `cron`/],
        [{ cron: '0 9 * * *', timezone: 'Mars/Olympus', targets: [target] }, /"Mars\/Olympus" is not a time zone/],
      ];
      for (const [body, message] of cases) {
        const answer = await ck.schedules.create(body as never);
        expect(answer).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringMatching(message) });
      }
      // 09:00 in Paris is 08:00 UTC in winter, 07:00 in summer, and stays 09:00 there
      const paris = await ck.schedules.create({ cron: '0 9 * * *', timezone: 'Europe/Paris', targets: [target] });
      if (!paris.success) throw new Error(JSON.stringify(paris));
      expect(paris.data.timezone).toBe('Europe/Paris');
      const at = new Date(paris.data.nextRunAt!);
      expect(at.toLocaleTimeString('en-GB', { timeZone: 'Europe/Paris' })).toBe('09:00:00');
      expect(at.getUTCHours()).toBeOneOf([7, 8]);
    } finally {
      await ck.close();
    }
  });

  it('pause keeps the runs and last crawls a delete takes; resume fires on the clock again, its missed firings not run', async () => {
    const site = await startChangingSite({
      '/stable.html': { title: 'Stable', text: 'This page never changes.', modifiedAt: Date.UTC(2026, 0, 1) },
    });
    const dir = mkdtempSync(join(tmpdir(), 'ck-schedules-pause-'));
    const ck = new Crawlkit({ storeDir: dir, engine: 'http', runSchedules: true });
    const server = await startServer({ port: 0, crawlkit: ck, logger: quiet });
    // The one schedule's first firing, at once (an interval's first run is at its creation).
    const fired = new Promise<CrawlkitEvents['schedule:run'][0]>((resolve) => ck.once('schedule:run', resolve));
    try {
      const created = await ck.schedules.create({
        every: '1h',
        targets: [{ type: 'scrape', url: `${site.url}/stable.html` }],
      });
      if (!created.success) throw new Error(JSON.stringify(created));
      const { id, nextRunAt } = created.data;
      expect(created.data.status).toBe('active');
      const first = await ck.waitForJob((await fired).jobIds[0]!);
      expect(first).toMatchObject({ status: 'completed' });
      const due = (await ck.schedules.get(id)) as { data: { nextRunAt: string } };

      const paused = await fetch(`${server.url}/v2/schedule/${id}/pause`, { method: 'POST' });
      expect(paused.status).toBe(200);
      expect(await paused.json()).toMatchObject({ success: true, data: { id, status: 'paused', nextRunAt: null } });
      // paused again: as it was
      expect(await ck.schedules.pause(id)).toMatchObject({ data: { status: 'paused', nextRunAt: null } });
      const listed = await ck.schedules.list();
      expect(listed.success && listed.data[0]).toMatchObject({ status: 'paused', nextRunAt: null });
      // its run and its target's last crawl stay
      const db = new DatabaseSync(join(dir, 'crawlkit.db'), { readOnly: true });
      const count = db.prepare('SELECT count(*) AS n FROM history WHERE url = ?');
      expect({ runs: count.get(id)!.n, lineage: count.get(`tag::schedule:${id}:0`)!.n }).toEqual({
        runs: 1,
        lineage: 1,
      });
      db.close();

      const resumed = await ck.schedules.resume(id);
      // the firing it had, an hour after the first: not due yet, so kept
      expect(resumed).toMatchObject({ success: true, data: { status: 'active', nextRunAt: due.data.nextRunAt } });
      expect(Date.parse(due.data.nextRunAt) - Date.parse(nextRunAt!)).toBe(3_600_000);
      expect((await fetch(`${server.url}/v2/schedule/${id}/resume`, { method: 'POST' })).status).toBe(200);

      // Paused over three due times (its record as a pause of three hours before leaves it): resumed, it goes on at
      // its next firing in phase, and runs none of those it missed.
      await ck.schedules.pause(id);
      const store = await createSqliteStore({ dir });
      const stored = (await store.schedules!.get(id))!;
      const value = JSON.parse(stored.value) as { paused: { at: number; nextRunAt: number } };
      value.paused.nextRunAt -= 3 * 3_600_000;
      await store.schedules!.put({ ...stored, value: JSON.stringify(value) });
      await store.close();
      const late = await ck.schedules.resume(id);
      expect(late).toMatchObject({ success: true, data: { status: 'active', nextRunAt: due.data.nextRunAt } });
      // the next run compares with the run before the pause
      const again = await ck.schedules.run(id);
      if (!again.success) throw new Error(JSON.stringify(again));
      await ck.waitForJob(again.data.jobIds[0]!);
      const feed = await ck.getCrawlChanges(again.data.jobIds[0]!);
      expect(feed).toMatchObject({ success: true, data: [{ change: 'same' }] });
      expect((await ck.schedules.pause('01a22966-0000-7000-8000-000000000000')).success).toBe(false);
    } finally {
      await server.close();
      await ck.close();
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists schedules in the order they were made, those of one millisecond too', async () => {
    const ck = new Crawlkit({ store: 'memory', engine: 'http' });
    try {
      const made: string[] = [];
      for (let i = 0; i < 40; i++) {
        const created = await ck.schedules.create({
          every: '1h',
          targets: [{ type: 'scrape', url: `https://example.com/${i}` }],
        });
        if (!created.success) throw new Error(JSON.stringify(created));
        made.push(created.data.id);
      }
      const listed = await ck.schedules.list();
      expect(listed.success && listed.data.map((schedule) => schedule.id)).toEqual(made);
    } finally {
      await ck.close();
    }
  });
});
