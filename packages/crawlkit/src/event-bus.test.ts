import { expect, it } from 'vitest';

import { CrawlkitError, toErrorResponse } from './errors.js';
import { EventBus, MAX_TENANT_USAGES } from './event-bus.js';
import { CrawlkitEmitter } from './events.js';
import { silentLogger } from './logger.js';
import type { Document } from './v2/types.js';

const page = (credits: number): Document => ({
  metadata: { sourceURL: 'http://127.0.0.1/', statusCode: 200, creditsUsed: credits },
});

it('keeps the usage of the most recently active tenants only, the totals whole, and says so once', () => {
  const events = new CrawlkitEmitter();
  const warnings: string[] = [];
  events.on('warning', ({ code }) => warnings.push(code));
  const bus = new EventBus(events, silentLogger);
  // An app that gives each of its users a tenant: 1.5 times as many users as are kept.
  const users = MAX_TENANT_USAGES * 1.5;
  for (let user = 0; user < users; user++) {
    bus.page(undefined, page(1), `user-${user}`);
    // The first user stays active all along.
    if (user % 1_000 === 0) bus.charge(1, 'user-0');
  }
  // Before: one entry per tenant ever seen, 15,000 here, for as long as the engine ran.
  expect(bus.tenantsKept).toBe(MAX_TENANT_USAGES);
  expect(bus.usageOf('user-0').credits).toBe(1 + users / 1_000);
  expect(bus.usageOf('user-1').credits).toBe(0);
  expect(bus.usageOf(`user-${users - 1}`).credits).toBe(1);
  // Idle since its one page while 9,999 others were active: kept (only eviction past the cap drops a tenant's).
  expect(bus.usageOf(`user-${users - MAX_TENANT_USAGES + 1}`).credits).toBe(1);
  expect(bus.usageOf().credits).toBe(users + users / 1_000);
  expect(warnings).toEqual(['TENANT_USAGE_DROPPED']);
});

it('keeps no entry for a tenant whose failed page or charge used nothing', () => {
  const bus = new EventBus(new CrawlkitEmitter(), silentLogger);
  const failed = toErrorResponse(new CrawlkitError('SCRAPE_TIMEOUT', 'timed out'));
  for (let user = 0; user < 100; user++) {
    bus.pageFailed(undefined, 'http://127.0.0.1/', failed, `user-${user}`);
    bus.charge(0, `user-${user}`);
  }
  expect(bus.tenantsKept).toBe(0);
});
