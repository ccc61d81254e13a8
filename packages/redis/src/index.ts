export { createRedisStore } from './store/redis-store.js';
export type { RedisStore, RedisStoreOptions } from './store/redis-store.js';
export { RedisBackendError } from './errors.js';
export type { RedisBackendErrorCode } from './errors.js';
