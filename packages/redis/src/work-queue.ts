import { clearInterval, setInterval } from 'node:timers';
import { createHash, randomUUID } from 'node:crypto';

import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkAttempt, WorkConsumer, WorkItem, WorkQueue, WorkQueueCounts } from '@crawlkit/store';

import { redisFailure } from './errors.js';
import { ScriptRunner } from './store/scripts-runner.js';

/** A scrape task on the queue: the backend contract's `WorkItem`. */
export type QueueItem = WorkItem;

export interface WorkQueueOptions {
  /** Key prefix of the queue (BullMQ's own keys go under `<prefix>:bull`). */
  prefix: string;
  /** Lock on a running item; an item whose worker died is handed out again once it lapses. */
  lockMs: number;
  /** How often workers look for items whose lock lapsed. */
  stalledCheckMs: number;
  /**
   * Wait before an item's second run after its handler failed, doubled before each further one (`taskRetryDelayMs`).
   */
  retryDelayMs: number;
  /** Opens a client for a consumer (BullMQ's workers need their own, with no per-request retry limit). */
  openClient(): Promise<Redis>;
  /** The producer client's command timeout, named in `REDIS_UNAVAILABLE` messages. */
  commandTimeoutMs?: number;
}

const QUEUE_NAME = 'tasks';
/** BullMQ's lowest priority (`PRIORITY_LIMIT` of its job class, not exported). */
const PRIORITY_LIMIT = 2 ** 21 - 1;
/**
 * An item failing this often (a handler's rejection: not a scrape error) is given up, and not kept: a kept item would
 * make the same item queued again a duplicate (BullMQ keeps ids), so that the workers' sweep could never put back a
 * task whose store kept failing. The task's own failure is recorded in its job.
 */
const MAX_ATTEMPTS = 5;

/** BullMQ's custom job ids may not contain `:`; a hash keeps them short whatever the task key is. */
function itemId(item: QueueItem): string {
  const key = createHash('sha1').update(item.key).digest('base64url').slice(0, 22);
  return `${item.jobId}.${key}.${item.attempt}`;
}

/** A consumer of this process: its BullMQ worker, the worker's client and its presence in `<prefix>:workers`. */
interface Consumer {
  worker: Worker;
  client: Redis;
  /** Renews the presence. */
  presence: NodeJS.Timeout;
  id: string;
}

/**
 * The shared work queue on BullMQ: one BullMQ job per scrape task, with a lock renewed while it runs, stalled-job
 * recovery (a worker killed mid-task loses the task to another worker after `lockMs`) and retries with back-off for
 * handler failures.
 */
export class BullWorkQueue implements WorkQueue {
  readonly #queue: Queue;
  readonly #options: WorkQueueOptions;
  readonly #workers = new Set<Consumer>();
  /** Runs the presence scripts (`consumers()`) on the producer client. */
  readonly #scripts: ScriptRunner;

  constructor(client: Redis, options: WorkQueueOptions) {
    this.#options = options;
    this.#scripts = new ScriptRunner(client, options.prefix);
    this.#queue = new Queue(QUEUE_NAME, {
      connection: client,
      prefix: `${options.prefix}:bull`,
      defaultJobOptions: {
        removeOnComplete: true,
        removeOnFail: true,
        attempts: MAX_ATTEMPTS,
        backoff: { type: 'exponential', delay: options.retryDelayMs },
      },
    });
    // Connection errors surface as rejected calls; without a listener BullMQ prints each reconnect failure.
    this.#queue.on('error', () => undefined);
  }

  /** The lock on a running item (`taskLockMs`). */
  get lockMs(): number {
    return this.#options.lockMs;
  }

  async enqueue(items: readonly QueueItem[], options: { delayMs?: number } = {}): Promise<void> {
    if (items.length === 0) return;
    const delay = options.delayMs !== undefined && options.delayMs > 0 ? Math.ceil(options.delayMs) : undefined;
    try {
      const ordered = await this.#ordered(items);
      await this.#queue.addBulk(
        ordered.map((item) => ({
          name: 'scrape',
          data: item,
          opts: {
            jobId: itemId(item),
            priority: Math.min(item.order!, PRIORITY_LIMIT),
            ...(delay !== undefined ? { delay } : {}),
          },
        })),
      );
    } catch (error) {
      throw redisFailure(error, this.#options.commandTimeoutMs);
    }
  }

  /**
   * The items with their `order`: new ones get the next places of their job (a counter per job, `j:<job>:qo`, deleted
   * and expired with the job: `JOB_QUEUE_ORDER`), re-queued ones keep theirs. BullMQ serves the lowest priority first,
   * in the order queued among equals: the n-th items of every job come before the (n+1)-th of any, so that a job
   * submitted while another's frontier of thousands is queued starts at once and both go on at the same pace (before,
   * one queue in arrival order: the second of two 3,000-page crawls on two workers did 169 pages while the first did
   * 3,000).
   */
  async #ordered(items: readonly QueueItem[]): Promise<QueueItem[]> {
    const fresh = new Map<string, number>();
    for (const item of items) if (item.order === undefined) fresh.set(item.jobId, (fresh.get(item.jobId) ?? 0) + 1);
    if (fresh.size === 0) return [...items];
    const next = new Map<string, number>();
    for (const [jobId, count] of fresh) {
      const last = Number(await this.#scripts.run('JOB_QUEUE_ORDER', jobId, count));
      next.set(jobId, last - count + 1);
    }
    return items.map((item) => {
      if (item.order !== undefined) return item;
      const order = next.get(item.jobId)!;
      next.set(item.jobId, order + 1);
      return { ...item, order };
    });
  }

  async consume(
    handler: (item: QueueItem, attempt: WorkAttempt) => Promise<void>,
    options: { concurrency: number; settings?: string },
  ): Promise<WorkConsumer> {
    const client = await this.#options.openClient();
    const worker = new Worker<QueueItem>(
      QUEUE_NAME,
      (job) => handler(job.data, { final: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) }),
      {
        connection: client,
        prefix: `${this.#options.prefix}:bull`,
        concurrency: options.concurrency,
        lockDuration: this.#options.lockMs,
        stalledInterval: this.#options.stalledCheckMs,
        // A task may be orphaned by several crashes in a row; it is only given up on handler failures.
        maxStalledCount: 1_000,
      },
    );
    // Errors of the worker's own connection are retried by it; without a listener Node would print them.
    worker.on('error', () => undefined);
    await worker.waitUntilReady();
    // Presence, for `consumers()`: renewed as often as a task lock, so a killed worker stops counting as soon.
    const id = options.settings === undefined ? randomUUID() : `${randomUUID()}\n${options.settings}`;
    const seen = () => this.#scripts.run('WORKER_SEEN', id, this.#options.lockMs);
    await seen().catch(() => undefined);
    const presence = setInterval(() => void seen().catch(() => undefined), this.#options.lockMs / 2).unref();
    const entry = { worker, client, presence, id };
    this.#workers.add(entry);
    return {
      close: async () => {
        if (!this.#workers.delete(entry)) return;
        await this.#closeConsumer(entry);
      },
    };
  }

  async #closeConsumer(entry: Consumer): Promise<void> {
    clearInterval(entry.presence);
    await entry.worker.close();
    await this.#scripts.run('WORKER_GONE', entry.id).catch(() => undefined);
    await entry.client.quit().catch(() => entry.client.disconnect());
  }

  async consumers(): Promise<number> {
    try {
      return Number(await this.#scripts.run('WORKERS_ALIVE'));
    } catch (error) {
      throw redisFailure(error, this.#options.commandTimeoutMs);
    }
  }

  async consumerSettings(): Promise<string[]> {
    try {
      const members = (await this.#scripts.run('WORKERS_LIST')) as string[];
      return members.filter((member) => member.includes('\n')).map((member) => member.slice(member.indexOf('\n') + 1));
    } catch (error) {
      throw redisFailure(error, this.#options.commandTimeoutMs);
    }
  }

  async counts(): Promise<WorkQueueCounts> {
    const counts = await this.#queue
      .getJobCounts('waiting', 'active', 'delayed', 'prioritized')
      .catch((error: unknown) => {
        throw redisFailure(error, this.#options.commandTimeoutMs);
      });
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
    };
  }

  async close(): Promise<void> {
    for (const entry of [...this.#workers]) await this.#closeConsumer(entry);
    this.#workers.clear();
    await this.#queue.close();
  }
}
