/**
 * The Lua scripts of the store. Each runs atomically on the Redis server, which is what makes `add` (limit and
 * de-duplication), `claim`, `complete` (exactly-once results) and leases safe across processes and machines.
 *
 * Every script gets the key prefix as `ARGV[1]` and builds its keys from it (layout in the README), so the
 * store works on one Redis server or a primary with replicas, not on Redis Cluster.
 */

import { COUNTER_ADD } from './scripts/counter-scripts.js';
import { SEARCH_REINDEX } from './scripts/search-scripts.js';
import { SCHEDULE_CLAIM, SCHEDULE_DELETE, SCHEDULE_PUT } from './scripts/schedule-scripts.js';
import { ENGINE_RECORD } from './scripts/engine-scripts.js';
import { DELIVERY_DUE, DELIVERY_ENQUEUE, DELIVERY_UPDATE } from './scripts/delivery-scripts.js';
import {
  HOST_SLOT,
  JOB_SLOT_RELEASE,
  JOB_SLOT_TAKE,
  LOCK_RELEASE,
  LOCK_TAKE,
  WORKER_GONE,
  WORKER_SEEN,
  WORKERS_ALIVE,
  WORKERS_LIST,
} from './scripts/coordination-scripts.js';
import {
  JOB_ACQUIRE_LEASE,
  JOB_CREATE,
  JOB_DELETE,
  JOB_DELETE_EXPIRED,
  JOB_END,
  JOB_NOTE_FAULT,
  JOB_QUEUE_ORDER,
  JOB_STATUSES,
  JOB_RELEASE_LEASE,
  JOB_REPLACE_REQUEST,
  JOB_UPDATE,
} from './scripts/job-scripts.js';
import {
  HISTORY_APPEND,
  HISTORY_PRUNE,
  PAGE_CLEAR,
  PAGE_DELETE_BY_URL,
  PAGE_DELETE_BY_URL_PREFIX,
  PAGE_PRUNE,
  PAGE_PUT,
  PAGE_TOUCH,
} from './scripts/page-scripts.js';
import {
  RESULT_ADD_ERROR,
  RESULT_ADD_ROBOTS,
  TASK_ADD,
  TASK_CLAIM,
  TASK_CLAIM_ALIAS,
  TASK_COMPLETE,
  TASK_COMPLETE_MANY,
  TASK_DROP_QUEUED,
  TASK_QUEUED,
  TASK_RELEASE,
  TASK_REQUEUE_ACTIVE,
} from './scripts/task-scripts.js';

/** Every script as written, by name. */
const WRITTEN = {
  SCHEDULE_PUT,
  SCHEDULE_DELETE,
  SCHEDULE_CLAIM,
  PAGE_PUT,
  PAGE_TOUCH,
  PAGE_DELETE_BY_URL,
  PAGE_DELETE_BY_URL_PREFIX,
  PAGE_CLEAR,
  PAGE_PRUNE,
  JOB_CREATE,
  JOB_UPDATE,
  JOB_REPLACE_REQUEST,
  JOB_END,
  JOB_NOTE_FAULT,
  JOB_STATUSES,
  JOB_QUEUE_ORDER,
  JOB_DELETE,
  JOB_DELETE_EXPIRED,
  JOB_ACQUIRE_LEASE,
  JOB_RELEASE_LEASE,
  TASK_ADD,
  TASK_CLAIM,
  TASK_CLAIM_ALIAS,
  TASK_COMPLETE,
  TASK_COMPLETE_MANY,
  TASK_RELEASE,
  TASK_REQUEUE_ACTIVE,
  TASK_DROP_QUEUED,
  RESULT_ADD_ERROR,
  RESULT_ADD_ROBOTS,
  DELIVERY_ENQUEUE,
  DELIVERY_DUE,
  DELIVERY_UPDATE,
  HISTORY_APPEND,
  HISTORY_PRUNE,
  HOST_SLOT,
  JOB_SLOT_TAKE,
  JOB_SLOT_RELEASE,
  LOCK_TAKE,
  LOCK_RELEASE,
  WORKER_SEEN,
  WORKER_GONE,
  WORKERS_ALIVE,
  WORKERS_LIST,
  TASK_QUEUED,
  ENGINE_RECORD,
  COUNTER_ADD,
  SEARCH_REINDEX,
} as const;

export type ScriptName = keyof typeof WRITTEN;

/**
 * The scripts that run on a Redis at `maxmemory` (under `noeviction`) as written: they read, delete, or carry Redis
 * 7's `allow-oom` flag (a job's end and its store-fault note). Every other script is gated (`MEMORY_GATE`).
 */
const RUN_WHEN_FULL: ReadonlySet<ScriptName> = new Set<ScriptName>([
  'JOB_END',
  'JOB_NOTE_FAULT',
  'JOB_STATUSES',
  'JOB_DELETE',
  'JOB_DELETE_EXPIRED',
  'JOB_RELEASE_LEASE',
  'JOB_SLOT_RELEASE',
  'LOCK_RELEASE',
  'WORKER_SEEN',
  'WORKER_GONE',
  'WORKERS_ALIVE',
  'WORKERS_LIST',
  'PAGE_CLEAR',
  'PAGE_DELETE_BY_URL',
  'PAGE_DELETE_BY_URL_PREFIX',
  'PAGE_PRUNE',
  'HISTORY_PRUNE',
  'SCHEDULE_DELETE',
  'TASK_QUEUED',
  'DELIVERY_DUE',
]);

/**
 * The first command of a script that adds data: a write that Redis checks against `maxmemory` and that changes
 * nothing (an empty string written into a key that is never created). Redis refuses a script's write past
 * `maxmemory` only while the script has written nothing: once a script has deleted or moved something, it lets every
 * later write through, to keep the script whole. Without the gate, a task's completion (which takes the task out of
 * the active set first) stored its page on a full Redis, past the memory the operator allowed.
 */
const MEMORY_GATE = "redis.call('SETRANGE', ARGV[1] .. ':memory-gate', 0, '')\n";

/** Every script, by name, as the server runs it. */
export const SCRIPTS = Object.fromEntries(
  Object.entries(WRITTEN).map(([name, lua]) => [
    name,
    RUN_WHEN_FULL.has(name as ScriptName) ? lua : `${MEMORY_GATE}${lua}`,
  ]),
) as Record<ScriptName, string>;
