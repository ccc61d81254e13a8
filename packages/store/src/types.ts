/**
 * The storage contract of crawlkit, one file per sub-store in `contracts/`: the page cache (`pages.ts`), jobs,
 * their tasks and results, the webhook outbox (`deliveries.ts`), engine counts and change history, and `Store`, which
 * composes them (`store.ts`). A backend that only caches pages implements `PageCache`.
 */
export * from './contracts/pages.js';
export * from './contracts/jobs.js';
export * from './contracts/tasks.js';
export * from './contracts/results.js';
export * from './contracts/deliveries.js';
export * from './contracts/engines.js';
export * from './contracts/history.js';
export * from './contracts/search.js';
export * from './contracts/store.js';
export * from './contracts/counters.js';
export * from './contracts/schedules.js';
