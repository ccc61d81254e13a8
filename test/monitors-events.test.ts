/**
 * A monitor's `monitor.check.completed` webhook event: one signed POST when a check closes, with its id, status and
 * summary, beside the page events (or alone), received by a receiver that verifies the signature.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit } from 'crawlkit';
import { afterEach, describe, expect, it } from 'vitest';

import { startChangingSite } from '../fixtures/changing-site.ts';
import { startReceiver, until } from './helpers-batch.ts';
import { ok } from './monitors-helpers.ts';

const SECRET = 'whsec-monitor-test';
const day = Date.UTC(2026, 0, 1);
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface CheckEvent {
  type: string;
  id: string;
  webhookId: string;
  data: { monitorId: string; checkId: string; status: string; summary: Record<string, number> }[];
  metadata: Record<string, string>;
}

describe('monitor.check.completed', () => {
  it('sends one signed event per closed check, beside the page events or alone', async () => {
    const site = await startChangingSite({
      '/a.html': { title: 'A', text: 'First.', modifiedAt: day },
      '/b.html': { title: 'B', text: 'Second.', modifiedAt: day },
    });
    closers.push(() => site.close());
    // Unsigned or wrongly signed events are answered 401 and never recorded.
    const receiver = await startReceiver({ verifySecret: SECRET });
    closers.push(() => receiver.close());
    const ck = new Crawlkit({ store: 'memory', engine: 'http', webhooks: { secret: SECRET } });
    closers.push(() => ck.close());
    const targets = [{ type: 'scrape' as const, urls: [`${site.url}/a.html`, `${site.url}/b.html`] }];

    const both = ok(
      await ck.monitors.create({
        name: 'both',
        schedule: { cron: '0 0 1 1 *' },
        targets,
        webhook: {
          url: `${receiver.url}/both`,
          metadata: { team: 'docs' },
          events: ['monitor.page', 'monitor.check.completed'],
        },
      }),
    );
    expect(both.data.webhook?.events).toEqual(['new', 'changed', 'removed', 'monitor.check.completed']);
    const run = ok(await ck.monitors.run(both.data.id)).data;
    const completed = () =>
      receiver.events
        .map((e) => e.payload as unknown as CheckEvent)
        .filter((p) => p.type === 'monitor.check.completed');
    await until(() => completed().length === 1, 20_000);
    expect(completed()[0]).toMatchObject({
      id: both.data.id,
      metadata: { team: 'docs' },
      data: [
        {
          monitorId: both.data.id,
          checkId: run.id,
          status: 'completed',
          summary: { totalPages: 2, new: 2, same: 0, changed: 0, removed: 0, error: 0 },
        },
      ],
    });
    await until(
      () => receiver.events.filter((e) => (e.payload.type as string) === 'schedule.change').length === 2,
      20_000,
    );

    // Alone: no page event, the check's event only.
    const alone = ok(
      await ck.monitors.create({
        name: 'alone',
        schedule: { cron: '0 0 1 1 *' },
        targets,
        webhook: { url: `${receiver.url}/alone`, events: ['monitor.check.completed'] },
      }),
    );
    expect(alone.data.webhook?.events).toEqual(['monitor.check.completed']);
    const second = ok(await ck.monitors.run(alone.data.id)).data;
    await until(() => completed().length === 2, 20_000);
    expect(completed()[1]!.data[0]).toMatchObject({ monitorId: alone.data.id, checkId: second.id });
    // Read the check (a second close is a no-op) and let any stray event land: still one per check, no page event.
    ok(await ck.monitors.check(alone.data.id, second.id));
    const toAlone = receiver.events.filter((e) => (e.payload as unknown as CheckEvent).id === alone.data.id);
    expect(toAlone.map((e) => e.payload.type)).toEqual(['monitor.check.completed']);
    expect(new Set(receiver.deliveryIds).size).toBe(receiver.deliveryIds.length);

    // Turned off by an update that gives the webhook without it.
    const off = ok(
      await ck.monitors.update(alone.data.id, { webhook: { url: `${receiver.url}/alone`, events: ['changed'] } }),
    );
    expect(off.data.webhook?.events).toEqual(['changed']);
  }, 60_000);

  it('tells a check skipped because the previous one still runs, as it is recorded', async () => {
    // A page that answers once released: the first check runs until then.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const site = createServer((_req, res) => {
      void held.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<main><p>Slow.</p></main>'));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => site.close(() => resolve())));
    closers.push(() => Promise.resolve(release()));
    const receiver = await startReceiver({ verifySecret: SECRET });
    closers.push(() => receiver.close());
    const ck = new Crawlkit({ store: 'memory', engine: 'http', webhooks: { secret: SECRET } });
    closers.push(() => ck.close());
    const monitor = ok(
      await ck.monitors.create({
        name: 'slow',
        schedule: { cron: '0 0 1 1 *' },
        targets: [{ type: 'scrape', urls: [`http://127.0.0.1:${(site.address() as AddressInfo).port}/slow`] }],
        webhook: { url: receiver.url, events: ['monitor.check.completed'] },
      }),
    ).data;
    const first = ok(await ck.monitors.run(monitor.id)).data;
    const second = ok(await ck.monitors.run(monitor.id)).data;
    expect(second.status).toBe('skipped_overlap');
    const told = () => receiver.events.map((e) => (e.payload as unknown as CheckEvent).data[0]!);
    await until(() => told().length === 1, 20_000);
    expect(told()[0]).toMatchObject({ checkId: second.id, status: 'skipped_overlap' });
    release();
    await until(() => told().length === 2, 20_000);
    expect(told()[1]).toMatchObject({ checkId: first.id, status: 'completed' });
  }, 60_000);
});
