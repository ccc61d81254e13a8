import type { JobRecord, SecretBox, Store } from '@crawlkit/store';
import type { Fetcher, HttpEngine, WarcWriter } from '@crawlkit/fetcher';

import type { ExtractionPool } from './extraction/pool.js';
import type { LlmService } from './llm/llm-service.js';
import type { ResolvedOptions } from './options.js';
import type { Recordings } from './record/recordings.js';
import type { LateCacheWrites } from './scrape/late-cache-writes.js';
import type { TellWarning } from './warning-codes.js';

/** What the scrape path and the job runner share: one per `Crawlkit` instance. */
export interface EngineContext {
  readonly options: ResolvedOptions;
  readonly fetcher: Fetcher;
  /** Plain HTTP for robots.txt, sitemaps and webhooks, under the same URL policy. */
  readonly http: HttpEngine;
  readonly store: Store;
  readonly llm: LlmService;
  /** The worker threads that run the CPU-bound work of pages. */
  readonly extraction: ExtractionPool;
  /** The de-duplication and cache key of a URL. */
  normalizeUrl(url: string): string;
  /** What seals the header values of the jobs kept in `store` (see `persistSecrets`). */
  readonly secrets: (store: Store) => SecretBox;
  /** The WARC files of `record: true` being written. */
  readonly recordings: Recordings;
  /** The page cache's writes still committing after their scrape answered. */
  readonly cacheWrites: LateCacheWrites;
  /** Tells the engine's `warning` event (a page's note its caller should hear of: a redirect to nowhere). */
  readonly warning: TellWarning;
  /** Set in the context of a job or scrape run with `record: true`: every exchange of its fetches goes there. */
  readonly recording?: WarcWriter;
  /** The context `job` runs in: this one, under the job's stored URL policy as well (see `jobs/job-policy.ts`). */
  readonly forJob: (job: JobRecord) => EngineContext;
}
