/**
 * A check's close streams its pages to the store: each chunk of 500 pages is written once made, while the crawl's
 * results are still being read (500 at a time), so that a check of many thousands of pages holds one chunk, not the
 * check. Before, the close built the whole list of pages, then wrote the chunks. Watched on a real memory store,
 * whose reads and writes are recorded as they pass (figures: docs/performance-journal.md, `bench/monitor-close.ts`).
 */
import { createMemoryStore, type Store } from '@crawlkit/store';
import { Crawlkit } from 'crawlkit';
import { afterEach, describe, expect, it } from 'vitest';

import { startChangingSite } from '../fixtures/changing-site.ts';
import { closedCheck, ok } from './monitors-helpers.ts';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** `target` with `name` replaced by `wrap(bound method)`, every other method bound to the target. */
function observed<T extends object>(
  target: T,
  name: string,
  wrap: (method: (...args: unknown[]) => unknown) => unknown,
): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(object);
      return property === name ? wrap(bound) : bound;
    },
  });
}

/** `store` with each results read (job, skip) and each history write (its tag and key) recorded in `log`, in order. */
function recorded(store: Store, log: string[]): Store {
  const results = observed(store.results, 'list', (list) => (jobId: string, skip: number, ...rest: unknown[]) => {
    log.push(`read ${jobId} ${skip}`);
    return list(jobId, skip, ...rest);
  });
  const history = observed(store.history, 'append', (append) => (entry: { url: string; tag: string }) => {
    log.push(`write ${entry.tag} ${entry.url}`);
    return append(entry);
  });
  return new Proxy(store, {
    get(target, name) {
      if (name === 'results') return results;
      if (name === 'history') return history;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe("a monitor check's close", () => {
  it('writes its first chunk of pages before it has read all of its crawl', { timeout: 60_000 }, async () => {
    const count = 620;
    const site = await startChangingSite(
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [
          `/page-${i}.html`,
          { title: `Page ${i}`, text: `Page ${i}.`, modifiedAt: Date.UTC(2026, 0, 1) },
        ]),
      ),
    );
    closers.push(() => site.close());
    const log: string[] = [];
    const ck = new Crawlkit({ store: recorded(createMemoryStore(), log), engine: 'http' });
    closers.push(() => ck.close());
    const { id } = ok(
      await ck.monitors.create({
        name: 'large',
        schedule: { cron: '0 0 1 1 *' },
        targets: [{ type: 'crawl', url: `${site.url}/`, crawlOptions: { sitemap: 'skip', limit: 1_000 } }],
      }),
    ).data;
    const run = ok(await ck.monitors.run(id)).data;
    const check = await closedCheck(ck, id, run.id);
    expect(check.summary).toMatchObject({ totalPages: count + 1, new: count + 1 });
    expect(check.pages).toHaveLength(count + 1);

    const target = check.targetResults[0];
    const crawlId = target?.type === 'crawl' ? target.crawlId : undefined;
    expect(crawlId).toBeDefined();
    const first = log.findIndex((line) => / crawlkit:monitor-check-pages \S+#0$/.test(line));
    expect(first).toBeGreaterThan(0);
    // The crawl's results past the first 500 are read after the first chunk is written.
    const later = log.slice(first).filter((line) => line.startsWith('read ') && !line.endsWith(' 0'));
    expect(later.length).toBeGreaterThan(0);
    expect(later[0]).toBe(`read ${crawlId} 500`);
    expect(log.some((line) => / crawlkit:monitor-check-pages \S+#1$/.test(line))).toBe(true);
  });
});
