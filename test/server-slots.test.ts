/**
 * Several tenants on one server: one key's running jobs do not hold another key's scrape back by more than a page.
 * The engine's slots start a waiting caller's scrape before the pages jobs have queued (upstream queues single
 * scrapes ahead of crawl pages). A real server, one slot, pages that answer when the test releases them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ok, until } from './helpers-batch.ts';
import { call } from './helpers/raw-http.ts';
import { startServeStack, type ServeStack } from './helpers/serve.ts';

let stack: ServeStack;
const as = (key: string) => ({ authorization: `Bearer ${key}` });

beforeAll(async () => {
  stack = await startServeStack({ crawlkit: { concurrency: 1 }, server: { apiKeys: ['fc-a', 'fc-b'] } });
});

afterAll(async () => {
  await stack?.close();
});

/** The held pages the site was asked for, in order. */
const held = () => stack.site.requests.map((r) => r.path).filter((path) => path.startsWith('/held/'));
/** Scrapes waiting in the engine's slots, every key's (the operator's view: a key's queue-status counts its own). */
const waiting = () => ok(stack.ck.getQueueStatus()).waitingJobsInQueue;

describe('the engine slots under several tenants', () => {
  it("start key B's scrape before the pages key A's batches queued earlier", async () => {
    // Three batches of key A, started one after the other: a1 holds the one slot, a2 and a3 wait for it.
    for (const path of ['/held/a1', '/held/a2', '/held/a3']) {
      const batch = await call(stack.server.url, 'POST', '/v2/batch/scrape', {
        headers: as('fc-a'),
        body: { urls: [stack.page(path)] },
      });
      expect(batch.status).toBe(200);
      await until(() => held().length === 1 && waiting() === Number(path.at(-1)) - 1);
    }
    const scrape = call(stack.server.url, 'POST', '/v2/scrape', {
      headers: as('fc-b'),
      body: { url: stack.page('/held/b') },
    });
    await until(() => waiting() === 3);

    stack.release('/held/a1');
    await until(() => held().length === 2);
    expect(held()).toEqual(['/held/a1', '/held/b']);
    stack.release('/held/b');
    expect((await scrape).status).toBe(200);
    // The batches go on after it, in their order.
    stack.release('/held/a2');
    stack.release('/held/a3');
    await until(() => held().length === 4);
    expect(held().slice(2)).toEqual(['/held/a2', '/held/a3']);
  });
});
