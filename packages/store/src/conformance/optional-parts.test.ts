/**
 * The store suite (`describeStoreConformance`) on a full store that leaves out every part and method the contracts
 * call optional (`counters`, `schedules`, `search`, `secrets`, `pages.touch`, `pages.keysOf`,
 * `pages.deleteByUrlPrefix`, `history.delete`, `deleteTag` and `prune`): their tests are skipped, the rest hold it to
 * the contract.
 */
import { describeStoreConformance } from '../conformance.js';
import { createMemoryStore } from '../memory/memory-store.js';
import type { Store } from '../types.js';

/** `target` seen without its members `names` (methods of its class bound to it). */
function without<T extends object>(target: T, ...names: string[]): T {
  return new Proxy(target, {
    get: (object, name) => {
      if (names.includes(String(name))) return undefined;
      const value: unknown = Reflect.get(object, name, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
    has: (object, name) => !names.includes(String(name)) && name in object,
  });
}

describeStoreConformance('a store without the optional parts', (options): Store => {
  const memory = createMemoryStore(options);
  return {
    kind: 'required-parts-only',
    ephemeral: true,
    pages: without(memory.pages, 'touch', 'keysOf', 'deleteByUrlPrefix'),
    jobs: memory.jobs,
    tasks: memory.tasks,
    results: memory.results,
    deliveries: memory.deliveries,
    engines: memory.engines,
    history: without(memory.history, 'delete', 'deleteTag', 'prune'),
    close: () => memory.close(),
  };
});
