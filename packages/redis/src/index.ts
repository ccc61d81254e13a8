export { redis } from './backend.js';
export type { RedisBackend, RedisBackendConnection, RedisBackendOptions } from './backend.js';
export { createRedisStore } from './store/redis-store.js';
export type { RedisStore, RedisStoreOptions } from './store/redis-store.js';
export { RedisBackendError, isRedisBackendError } from './errors.js';
export type { RedisBackendErrorCode } from './errors.js';
export { RedisCoordination } from './coordination.js';
export { BullWorkQueue } from './work-queue.js';
export type { QueueItem, WorkQueueOptions } from './work-queue.js';
