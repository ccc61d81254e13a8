import { describe } from 'vitest';
import { describeCounterConformance } from './conformance/counters.js';
import { describeEngineConformance } from './conformance/engines.js';
import { describeJobConformance } from './conformance/jobs.js';
import { describePageConformance } from './conformance/pages.js';
import { describeOutboxConformance } from './conformance/outbox.js';
import { describeTaskConformance } from './conformance/tasks.js';
import type { StoreFactory } from './conformance/harness.js';

export type { StoreFactory, ConformanceStoreOptions } from './conformance/harness.js';

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
    describeOutboxConformance(factory);
    describeEngineConformance(factory);
    describeCounterConformance(factory);
  });
}
