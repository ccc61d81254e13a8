/** Options of `ck.startWorker()`. */
export interface WorkerOptions {
  /**
   * Scrape tasks this worker runs at once (they also count against the engine's `concurrency`).
   * @default the engine's `concurrency`
   */
  concurrency?: number;
  /**
   * How often the worker checks, while the queue is empty, for unfinished jobs whose tasks are off the queue (their
   * submitter died before queuing them) or that nobody marked finished (their last worker died), in milliseconds.
   * @default 5000
   */
  sweepIntervalMs?: number;
  /**
   * How long a job may stay stalled on a store that fails for now (Redis at `maxmemory` under `noeviction`, paused,
   * out of reach), from the first fault its tasks met with no page stored since, before it ends failed, in
   * milliseconds; on a full Redis, it ends while Redis is still full. Until then its tasks wait on the queue and run
   * once the store answers, and its status's `warning` says why; a refusal for good (`REDIS_REFUSED`: `NOPERM`,
   * `WRONGTYPE`, a script error) ends the job at once.
   * @default 3600000 (an hour)
   */
  storeFaultTimeoutMs?: number;
}
