import { positiveInt } from '@crawlkit/options';
import { z } from 'zod';

/** The engine's `jobs` option: limits of each crawl or batch job. */
export interface JobLimitOptions {
  /**
   * Bytes of results (the UTF-8 JSON of its documents) one job may store. A job past it ends `failed` with a
   * `JOB_STORE_BUDGET_EXCEEDED` job error; the pages stored until then stay readable. It keeps a crawl trap or an
   * endless site from filling the disk.
   * @default 1073741824 (1 GiB)
   */
  maxStoreBytes?: number;
}

export const jobLimitsSchema = z.strictObject({ maxStoreBytes: positiveInt.default(1024 ** 3) }).prefault({});
