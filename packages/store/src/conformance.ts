import { describe } from 'vitest';
import { describeAliasConformance } from './conformance/aliases.js';
import { describeCounterConformance } from './conformance/counters.js';
import { describeEngineConformance } from './conformance/engines.js';
import { describeJobConformance } from './conformance/jobs.js';
import { describePageConformance } from './conformance/pages.js';
import { describeDeliveryConformance } from './conformance/deliveries.js';
import { describeHistoryConformance } from './conformance/history.js';
import { describeLifecycleConformance, describePageCacheLifecycleConformance } from './conformance/lifecycle.js';
import { describeResultConformance } from './conformance/results.js';
import { describeScheduleConformance } from './conformance/schedules.js';
import { describeSearchConformance } from './conformance/search.js';
import { describeSearchScriptsConformance } from './conformance/search-scripts.js';
import { describeTaskConformance } from './conformance/tasks.js';
import type { PageCacheFactory, StoreFactory } from './conformance/harness.js';

export type { StoreFactory, PageCacheFactory, ConformanceStoreOptions } from './conformance/harness.js';

/**
 * The behaviour every `Store` backend must show, as a vitest suite. Call it from a backend's test file:
 *
 * ```ts
 * describeStoreConformance('memory', (options) => createMemoryStore(options));
 * ```
 *
 * The factory must return a fresh, empty store honouring the options it is given; the suite closes it after each test.
 */
export function describeStoreConformance(name: string, factory: StoreFactory): void {
  describe(`Store conformance: ${name}`, () => {
    describePageConformance(factory);
    describeJobConformance(factory);
    describeTaskConformance(factory);
    describeAliasConformance(factory);
    describeResultConformance(factory);
    describeDeliveryConformance(factory);
    describeHistoryConformance(factory);
    describeLifecycleConformance(factory);
    describeEngineConformance(factory);
    describeSearchConformance(factory);
    describeSearchScriptsConformance(factory);
    describeCounterConformance(factory);
    describeScheduleConformance(factory);
  });
}

/**
 * The behaviour a backend that only caches pages (`PageCache`) must show: the page part of the store suite and its
 * lifecycle (`close()` idempotent, then `STORE_CLOSED`). The contract's optional methods (`touch`, `keysOf`) are
 * tested when the cache has them, and their tests skipped otherwise.
 *
 * ```ts
 * describePageCacheConformance('my cache', (options) => createMyCache(options));
 * ```
 */
export function describePageCacheConformance(name: string, factory: PageCacheFactory): void {
  describe(`PageCache conformance: ${name}`, () => {
    describePageConformance(factory);
    describePageCacheLifecycleConformance(factory);
  });
}
