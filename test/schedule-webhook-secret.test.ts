/**
 * A schedule keeps the webhook secret of the engine that created it (sealed in the SQLite store): another engine on
 * the store, started without a secret, signs the schedule's change events with it, and a verifying receiver takes
 * them. A schedule stored without one (by an engine that had none, or before the rule) is signed by the runner's own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Crawlkit, type CrawlkitEvents, type ScheduleChangePayload } from 'crawlkit';
import { describe, expect, it } from 'vitest';

import { startChangingSite } from '../fixtures/changing-site.ts';
import { startReceiver } from './helpers-batch.ts';

const SECRET = 'whsec-schedule';
const webhooks = { retryDelayMs: 30, maxRetryDelayMs: 100, maxAttempts: 2, timeoutMs: 1000 };

/**
 * Creates a one-page schedule on an engine with `creator`'s secret, closes it, and runs the schedule on a second engine
 * with `runner`'s; the receiver verifies `SECRET`. What the receiver took and how many POSTs it had.
 */
async function runElsewhere(creator: string | undefined, runner: string | undefined) {
  const storeDir = mkdtempSync(join(tmpdir(), 'ck-schedule-secret-'));
  const site = await startChangingSite({
    '/page.html': { title: 'Page', text: 'A page to watch.', modifiedAt: Date.UTC(2026, 0, 1) },
  });
  const receiver = await startReceiver({ verifySecret: SECRET });
  let second: Crawlkit | undefined;
  try {
    const first = new Crawlkit({ storeDir, engine: 'http', webhooks: { ...webhooks, secret: creator } });
    const created = await first.schedules.create({
      every: '1h',
      targets: [{ type: 'scrape', url: `${site.url}/page.html` }],
      webhook: { url: receiver.url },
    });
    if (!created.success) throw new Error(JSON.stringify(created));
    // The first engine runs no schedules: the schedule fires in the second.
    expect(created.warning).toContain('does not run schedules');
    await first.close();

    second = new Crawlkit({ storeDir, engine: 'http', runSchedules: true, webhooks: { ...webhooks, secret: runner } });
    const changes = await new Promise<CrawlkitEvents['schedule:changes'][0]>((resolve) =>
      second!.once('schedule:changes', resolve),
    );
    expect(changes.queued).toBe(1);
    // close() sends what it queued: the receiver has answered the event when it returns.
    await second.close();
    return { events: receiver.events.map((e) => e.payload as unknown as ScheduleChangePayload), receiver };
  } finally {
    await second?.close();
    await receiver.close();
    await site.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
}

describe("a schedule's change webhooks", () => {
  it('are signed with the secret of the engine that created the schedule, wherever it runs', async () => {
    const { events, receiver } = await runElsewhere(SECRET, undefined);
    expect(events).toMatchObject([{ type: 'schedule.change', data: [{ change: 'new' }] }]);
    expect(receiver.attempts).toBe(1);
  }, 60_000);

  it("of a schedule stored without a secret are signed with the running engine's own", async () => {
    const { events, receiver } = await runElsewhere(undefined, SECRET);
    expect(events).toMatchObject([{ type: 'schedule.change', data: [{ change: 'new' }] }]);
    expect(receiver.attempts).toBe(1);
  }, 60_000);
});
