/**
 * What a schedule leaves in the store. A schedule keeps each target's change feed, so `zeroDataRetention` cannot go
 * with it: a target that asks for it is refused, saying why, and nothing of the refused request is kept. A scheduled
 * crawl's header values (the target's and the webhook's) and its webhook's URL are sealed wherever they go, the schedule record, the crawl
 * job it starts and the webhook events queued in the crawl's store: never in the bytes of the SQLite files, after the
 * run and its events are done.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type CrawlkitEvents, type ErrorResponse } from 'crawlkit';
import { afterEach, describe, expect, it } from 'vitest';

import { startChangingSite } from '../fixtures/changing-site.ts';
import { startReceiver } from './helpers-batch.ts';

const AUTH = `auth-${randomUUID()}`;
const COOKIE = `cookie-${randomUUID()}`;
const HOOK = `hook-${randomUUID()}`;
/** A token in the webhook's URL (kept as given before URLs were sealed). */
const HOOK_QUERY = `q-${randomUUID()}`;
const SECRETS = [AUTH, COOKIE, HOOK, HOOK_QUERY];
const webhooks = { retryDelayMs: 30, maxRetryDelayMs: 100, maxAttempts: 2, timeoutMs: 2000 };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function storeDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ck-schedule-at-rest-'));
  dirs.push(dir);
  return dir;
}

/** The secrets found in the bytes of the store's files (the database, its WAL and journal). */
function secretsOnDisk(dir: string): string[] {
  const bytes = readdirSync(dir)
    .filter((name) => name.startsWith('crawlkit.db'))
    .map((name) => readFileSync(join(dir, name)).toString('latin1'))
    .join('\n');
  return SECRETS.filter((secret) => bytes.includes(secret));
}

describe("a schedule's data at rest", () => {
  it('refuses zeroDataRetention on a target, saying why, and keeps nothing of the refused request', async () => {
    const dir = storeDir();
    const ck = new Crawlkit({ storeDir: dir, engine: 'http' });
    try {
      for (const target of [
        {
          type: 'crawl' as const,
          url: 'https://example.com/',
          zeroDataRetention: true,
          scrapeOptions: { headers: { Authorization: AUTH } },
        },
        { type: 'scrape' as const, url: 'https://example.com/', zeroDataRetention: true, headers: { Cookie: COOKIE } },
      ]) {
        const refused = (await ck.schedules.create({
          every: '1h',
          targets: [target],
          webhook: { url: 'http://127.0.0.1:9/hook', headers: { 'x-token': HOOK } },
        })) as ErrorResponse;
        expect(refused).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect(refused.error).toBe(
          '`targets[0].zeroDataRetention` cannot be set: a schedule compares each run with the last, which keeps a ' +
            'hash of each page in the store; scrape or crawl with zeroDataRetention outside a schedule.',
        );
      }
      expect(await ck.schedules.list()).toMatchObject({ success: true, data: [] });
    } finally {
      await ck.close();
    }
    expect(secretsOnDisk(dir)).toEqual([]);
  });

  it("keeps a scheduled crawl's header values out of the SQLite bytes, through its run and its webhook", async () => {
    const dir = storeDir();
    const site = await startChangingSite({
      '/page.html': {
        title: 'Page',
        text: 'A page behind a login, watched by a schedule.',
        modifiedAt: Date.UTC(2026, 0, 1),
      },
    });
    const receiver = await startReceiver();
    const ck = new Crawlkit({ storeDir: dir, engine: 'http', runSchedules: true, webhooks });
    try {
      const changes = new Promise<CrawlkitEvents['schedule:changes'][0]>((resolve) =>
        ck.once('schedule:changes', resolve),
      );
      const created = await ck.schedules.create({
        every: '1h',
        targets: [{ type: 'scrape', url: `${site.url}/page.html`, headers: { Authorization: AUTH, Cookie: COOKIE } }],
        webhook: { url: `${receiver.url}?token=${HOOK_QUERY}`, headers: { 'x-token': HOOK } },
      });
      expect(created.success, JSON.stringify(created)).toBe(true);
      expect((await changes).queued).toBe(1);
    } finally {
      // close() sends the events it queued: the receiver has answered when it returns.
      await ck.close();
      await receiver.close();
      await site.close();
    }
    expect(receiver.events.map((e) => e.headers['x-token'])).toEqual([HOOK]);
    expect(secretsOnDisk(dir)).toEqual([]);
  }, 60_000);
});
